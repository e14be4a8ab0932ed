import { type Context, ROOT_CONTEXT, type SpanContext, TraceFlags, trace } from '@opentelemetry/api';

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(?:-.*)?$/;
const ZERO_TRACE = '0'.repeat(32);
const ZERO_SPAN = '0'.repeat(16);

/**
 * The remote span context a W3C `traceparent` header names (`00-<trace id>-<span id>-<flags>`),
 * or `undefined` for a missing or malformed one (the W3C rule: such a header is ignored and the
 * run starts a new trace). Parsed here, not by the global propagator, so a library continues a
 * trace whatever propagator the application registered (or none).
 */
export function parseTraceparent(header: string | undefined | null): SpanContext | undefined {
  if (typeof header !== 'string' || header.length > 512) return undefined;
  const match = TRACEPARENT.exec(header.trim().toLowerCase());
  if (match === null) return undefined;
  const [, version, traceId, spanId, flags] = match as unknown as [string, string, string, string, string];
  // Version ff is invalid; version 00 has nothing after the flags.
  if (version === 'ff' || (version === '00' && header.trim().length !== 55)) return undefined;
  if (traceId === ZERO_TRACE || spanId === ZERO_SPAN) return undefined;
  return {
    traceId,
    spanId,
    traceFlags: Number.parseInt(flags, 16) & TraceFlags.SAMPLED,
    isRemote: true,
  };
}

/** A context whose parent span is the one `traceparent` names (`base`, default the root, when it names none). */
export function contextFromTraceparent(
  header: string | undefined | null,
  base: Context = ROOT_CONTEXT,
): Context {
  const spanContext = parseTraceparent(header);
  return spanContext === undefined ? base : trace.setSpanContext(base, spanContext);
}

/** The `traceparent` header for the span active in `ctx`, or `undefined` when it has none. */
export function traceparentOf(ctx: Context): string | undefined {
  const spanContext = trace.getSpanContext(ctx);
  if (spanContext === undefined || !trace.isSpanContextValid(spanContext)) return undefined;
  const flags = (spanContext.traceFlags & TraceFlags.SAMPLED).toString(16).padStart(2, '0');
  return `00-${spanContext.traceId}-${spanContext.spanId}-${flags}`;
}
