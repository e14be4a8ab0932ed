// The bench's traced contender really traces: one session of the agent-loop script, played by the
// testkit's model server on loopback, leaves the span tree @agent/telemetry makes for the runtime
// (session, turns, chat and execute_tool spans) in the exporter behind the batch processor.
import { type ModelServer, startModelServer } from '@agent/testkit';
import { context, propagation, trace } from '@opentelemetry/api';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { afterEach, expect, test } from 'vitest';
import { tracedCoreSessions } from '../src/agent-loop/contenders/agent-core-traced.js';
import { CALLS_PER_TURN, FINAL_ANSWER, MODEL, planAnswer, promptFor } from '../src/agent-loop/script.js';

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  trace.disable();
  context.disable();
  propagation.disable();
});

test('agent-core-traced exports the span tree of each session it runs', async () => {
  server = await startModelServer({ handler: (request) => planAnswer(request).answer, models: [MODEL] });
  const exporter = new InMemorySpanExporter();
  const { sessions, provider } = tracedCoreSessions(`${server.url}/v1`, exporter);
  const turns = 2;
  const outcome = await sessions(promptFor({ turns }), turns);
  expect(outcome.finalText).toBe(FINAL_ANSWER);
  await provider.forceFlush();
  const spans = exporter.getFinishedSpans();
  const named = (prefix: string) => spans.filter((span) => span.name.startsWith(prefix));
  const [session] = named('invoke_agent');
  expect(session?.name).toBe('invoke_agent bench-agent');
  expect(named('turn ')).toHaveLength(turns + 1);
  expect(named('chat ')).toHaveLength(turns + 1);
  expect(named('execute_tool lookup')).toHaveLength(turns * CALLS_PER_TURN);
  // One trace: every span is the session's or below it.
  expect(new Set(spans.map((span) => span.spanContext().traceId))).toEqual(
    new Set([session?.spanContext().traceId]),
  );
  await provider.shutdown();
});
