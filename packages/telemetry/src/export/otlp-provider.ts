// The SDK half of `startOtelExport`, loaded only when there is an endpoint to export to.
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
import { type ExportSettings, nonEmpty, type TraceSamplerName } from './settings.js';

function sampler(spec: NonNullable<ExportSettings['sampler']>): Sampler {
  const { type, ratio } = typeof spec === 'string' ? { type: spec, ratio: undefined } : spec;
  const root = (name: TraceSamplerName): Sampler => {
    if (name.endsWith('always_off')) return new AlwaysOffSampler();
    if (name.endsWith('traceidratio')) return new TraceIdRatioBasedSampler(ratio ?? 1);
    return new AlwaysOnSampler();
  };
  return type.startsWith('parentbased_') ? new ParentBasedSampler({ root: root(type) }) : root(type);
}

/** Registers a `NodeTracerProvider` batching spans to the OTLP/HTTP exporter at `url`. */
export function registerOtlpProvider(
  url: string,
  settings: ExportSettings | undefined,
  env: Record<string, string | undefined>,
  defaultServiceName: string,
): NodeTracerProvider {
  // Headers from agent.json; without them the exporter reads OTEL_EXPORTER_OTLP_(TRACES_)HEADERS.
  const headers = settings?.otlp?.headers;
  const exporter = new OTLPTraceExporter({ url, ...(headers === undefined ? {} : { headers }) });
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({
      [ATTR_SERVICE_NAME]: settings?.serviceName ?? nonEmpty(env.OTEL_SERVICE_NAME) ?? defaultServiceName,
    }),
    // Without a sampler in agent.json, the SDK reads OTEL_TRACES_SAMPLER / OTEL_TRACES_SAMPLER_ARG.
    ...(settings?.sampler === undefined ? {} : { sampler: sampler(settings.sampler) }),
    spanProcessors: [new BatchSpanProcessor(exporter)],
  });
  // The global provider, the AsyncLocalStorage context manager and the W3C propagator.
  provider.register();
  return provider;
}
