// `@agent/telemetry/export`: the OTLP/HTTP trace export the apps (`agent`, `agent-server`,
// `agent-server worker`) set up. Deciding whether there is anything to export reads only the
// settings and the environment; the OpenTelemetry SDK (an optional peer dependency) is loaded
// only when an endpoint is named.
import { type ExportSettings, exportTarget } from './settings.js';

export type { ExportSettings, TraceSamplerName } from './settings.js';
export { TRACE_SAMPLERS } from './settings.js';

export interface OtelExport {
  /** Where spans go, without credentials or query (for a log line). */
  target: string;
  /** Exports what is left and stops; call it before the process exits. */
  shutdown(): Promise<void>;
}

/**
 * Registers a tracer provider (`NodeTracerProvider`: the global provider, the AsyncLocalStorage
 * context manager and the W3C propagator) that exports spans over OTLP/HTTP (JSON) through a
 * `BatchSpanProcessor`, configured by agent.json's `telemetry` section (`settings`), else the
 * standard `OTEL_*` variables (OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT,
 * OTEL_EXPORTER_OTLP_HEADERS, OTEL_TRACES_SAMPLER(_ARG), OTEL_SERVICE_NAME).
 *
 * Resolves to `undefined`, without loading the SDK, when neither names an endpoint, or when
 * OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none.
 */
export async function startOtelExport(
  settings: ExportSettings | undefined,
  env: Record<string, string | undefined>,
  defaultServiceName: string,
): Promise<OtelExport | undefined> {
  const target = exportTarget(settings, env);
  if (target === undefined) return undefined;
  const { registerOtlpProvider } = await import('./otlp-provider.js');
  const provider = registerOtlpProvider(target.url, settings, env, defaultServiceName);
  return { target: target.printable, shutdown: () => provider.shutdown() };
}
