// What `startOtelExport` reads: the `telemetry` section of agent.json (the runtime's
// `TelemetrySection` has this shape) and the `OTEL_*` environment. No SDK here.

/** The samplers `telemetry.sampler` may name (the `OTEL_TRACES_SAMPLER` names). */
export const TRACE_SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;
export type TraceSamplerName = (typeof TRACE_SAMPLERS)[number];

/** agent.json's `telemetry` section (docs/observability.md). */
export interface ExportSettings {
  /** OTLP/HTTP: `endpoint` is the collector's base URL (`/v1/traces` is added); `headers` are secrets. */
  otlp?: { endpoint?: string; headers?: Record<string, string> };
  /** A sampler name, or `{ type, ratio }` for the ratio samplers (default: the SDK's, from `OTEL_TRACES_SAMPLER`). */
  sampler?: TraceSamplerName | { type: TraceSamplerName; ratio?: number };
  /** `service.name` of the spans (default `OTEL_SERVICE_NAME`, else the app's). */
  serviceName?: string;
}

type Env = Record<string, string | undefined>;

export function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

/** `telemetry.otlp.endpoint` is a base URL (like OTEL_EXPORTER_OTLP_ENDPOINT): `/v1/traces` is added. */
function tracesUrl(settings: ExportSettings | undefined, env: Env): string | undefined {
  const base = nonEmpty(settings?.otlp?.endpoint) ?? nonEmpty(env.OTEL_EXPORTER_OTLP_ENDPOINT);
  if (base !== undefined) return `${base.replace(/\/+$/, '')}/v1/traces`;
  return nonEmpty(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
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

/** Where spans would go, or `undefined` when export is off or no endpoint is named. */
export function exportTarget(
  settings: ExportSettings | undefined,
  env: Env,
): { url: string; printable: string } | undefined {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return undefined;
  if (env.OTEL_TRACES_EXPORTER?.trim().toLowerCase() === 'none') return undefined;
  const url = tracesUrl(settings, env);
  return url === undefined ? undefined : { url, printable: printable(url) };
}
