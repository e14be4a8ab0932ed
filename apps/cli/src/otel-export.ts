// OpenTelemetry export for an app (apps/cli and apps/server keep identical copies of this file:
// an app imports no other app; test/otel-export-copies.test.ts checks they stay the same).
import type { TelemetrySection, TraceSamplerName } from '@agent/runtime';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  type Sampler,
  TraceIdRatioBasedSampler,
} from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';

export interface OtelExport {
  /** Where spans go, without credentials or query (for a log line). */
  target: string;
  /** Exports what is left and stops; call it before the process exits. */
  shutdown(): Promise<void>;
}

type Env = Record<string, string | undefined>;

/** `telemetry.otlp.endpoint` is a base URL (like OTEL_EXPORTER_OTLP_ENDPOINT): `/v1/traces` is added. */
function tracesUrl(section: TelemetrySection | undefined, env: Env): string | undefined {
  const base = section?.otlp?.endpoint ?? nonEmpty(env.OTEL_EXPORTER_OTLP_ENDPOINT);
  if (base !== undefined) return `${base.replace(/\/+$/, '')}/v1/traces`;
  return nonEmpty(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

function sampler(spec: NonNullable<TelemetrySection['sampler']>): Sampler {
  const { type, ratio } = typeof spec === 'string' ? { type: spec, ratio: undefined } : spec;
  const root = (name: TraceSamplerName): Sampler => {
    if (name.endsWith('always_off')) return new AlwaysOffSampler();
    if (name.endsWith('traceidratio')) return new TraceIdRatioBasedSampler(ratio ?? 1);
    return new AlwaysOnSampler();
  };
  return type.startsWith('parentbased_') ? new ParentBasedSampler({ root: root(type) }) : root(type);
}

/** The URL with neither credentials nor query: what a log line may show. */
function printable(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return '(unparsable URL)';
  }
}

/**
 * Registers a tracer provider that exports spans over OTLP/HTTP (JSON), configured by agent.json's
 * `telemetry` section, else the standard `OTEL_*` variables (OTEL_EXPORTER_OTLP_ENDPOINT,
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, OTEL_EXPORTER_OTLP_HEADERS, OTEL_TRACES_SAMPLER(_ARG),
 * OTEL_SERVICE_NAME). Nothing is set up (`undefined`) when neither names an endpoint, or when
 * OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none.
 */
export function startOtelExport(
  section: TelemetrySection | undefined,
  env: Env,
  defaultServiceName: string,
): OtelExport | undefined {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return undefined;
  if (env.OTEL_TRACES_EXPORTER?.trim().toLowerCase() === 'none') return undefined;
  const url = tracesUrl(section, env);
  if (url === undefined) return undefined;
  // Headers from agent.json; without them the exporter reads OTEL_EXPORTER_OTLP_(TRACES_)HEADERS.
  const headers = section?.otlp?.headers;
  const exporter = new OTLPTraceExporter({ url, ...(headers === undefined ? {} : { headers }) });
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({
      [ATTR_SERVICE_NAME]: section?.serviceName ?? nonEmpty(env.OTEL_SERVICE_NAME) ?? defaultServiceName,
    }),
    // Without a sampler in agent.json, the SDK reads OTEL_TRACES_SAMPLER / OTEL_TRACES_SAMPLER_ARG.
    ...(section?.sampler === undefined ? {} : { sampler: sampler(section.sampler) }),
    spanProcessors: [new BatchSpanProcessor(exporter)],
  });
  // The global provider, the AsyncLocalStorage context manager and the W3C propagator.
  provider.register();
  return { target: printable(url), shutdown: () => provider.shutdown() };
}
