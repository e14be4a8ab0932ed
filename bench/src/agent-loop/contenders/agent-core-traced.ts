// The agent-core contender with tracing on, as an operator runs it: a `NodeTracerProvider`
// registered (AsyncLocalStorage context manager, W3C propagator) whose spans go through a
// `BatchSpanProcessor` to an exporter that drops them (the network left out), and each session
// traced with @agent/telemetry's `traceSession`, the way @agent/runtime traces the sessions it
// runs (packages/runtime/src/session-run/session-runner.ts).
import { randomUUID } from 'node:crypto';
import { run } from '@agent/core';
import { traceSession } from '@agent/telemetry';
import { type ExportResult, ExportResultCode } from '@opentelemetry/core';
import { BatchSpanProcessor, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { coreSessions } from './agent-core.js';
import type { ContenderFactory, SessionRunner } from './types.js';

const AGENT_NAME = 'bench-agent';

/** Takes each batch and drops it: an OTLP exporter's work up to the network, minus the network. */
class DroppingExporter implements SpanExporter {
  export(_spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    done({ code: ExportResultCode.SUCCESS });
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

/**
 * Registers a `NodeTracerProvider` batching spans to `exporter`, and returns the agent-core
 * sessions, each traced. The provider is returned so a test can flush it.
 */
export function tracedCoreSessions(
  baseURL: string,
  exporter: SpanExporter,
): { sessions: SessionRunner; provider: NodeTracerProvider } {
  const provider = new NodeTracerProvider({ spanProcessors: [new BatchSpanProcessor(exporter)] });
  provider.register();
  const sessions = coreSessions(baseURL, (agent, prompt, options) => {
    const sessionId = randomUUID();
    const traced = traceSession(
      { ...agent, ...options, sessionId },
      { name: AGENT_NAME, sessionId, agentPath: AGENT_NAME },
    );
    // Registered above with the default sampler (always on): every session is recorded.
    if (traced === undefined) throw new Error('agent-core-traced: the tracer provider records nothing');
    return traced.run(() => run(traced.config, prompt));
  });
  return { sessions, provider };
}

export const createAgentCoreTraced: ContenderFactory = (baseURL) =>
  tracedCoreSessions(baseURL, new DroppingExporter()).sessions;
