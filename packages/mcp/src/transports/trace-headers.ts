import { traceparentOf } from '@agent/telemetry';
import { context } from '@opentelemetry/api';

/**
 * `fetch` for the Streamable HTTP transport: a request made while a span is active (a tool call
 * traced by the runtime) carries that span's W3C `traceparent`, so the MCP server's own spans join
 * the run's trace. Without an active span (tracing off) the request goes out as it is.
 */
export function fetchWithTraceparent(input: string | URL, init?: RequestInit): Promise<Response> {
  const traceparent = traceparentOf(context.active());
  if (traceparent === undefined) return fetch(input, init);
  const headers = new Headers(init?.headers);
  if (!headers.has('traceparent')) headers.set('traceparent', traceparent);
  return fetch(input, { ...init, headers });
}
