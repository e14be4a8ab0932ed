// Compactions as spans: `agent.compaction` under the session span with its numbers, the summary
// calls' `chat` spans under it, a failed one an error; built from the events a session sends.
import type {
  AgentEvent,
  AgentEventMeta,
  AgentResult,
  CompactionRun,
  LlmAccountingEntry,
} from '@agent/protocol';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { expect, test } from 'vitest';
import { startSessionTrace } from '../src/index.js';

const meta: AgentEventMeta = { isMaster: true, isFinal: false, sessionId: 's-1', agentPath: 'researcher' };

function traced() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const session = startSessionTrace({
    name: 'researcher',
    sessionId: 's-1',
    agentPath: 'researcher',
    tracer: provider.getTracer('test'),
  });
  if (session === undefined) throw new Error('the span is not recorded');
  const feed = (...events: AgentEvent[]) => {
    for (const event of events) session.handle(event, meta);
  };
  const end = () =>
    session.end({ result: { success: true, exitCode: 'EXIT-FINAL-ANSWER' } as unknown as AgentResult });
  return { exporter, feed, end };
}

const llm = (over: Partial<LlmAccountingEntry> = {}): AgentEvent => ({
  type: 'accounting',
  entry: {
    type: 'llm',
    timestamp: Date.now(),
    status: 'ok',
    latency: 40,
    provider: 'local',
    model: 'writer',
    tokens: { inputTokens: 9000, outputTokens: 300, totalTokens: 9300 },
    turn: 6,
    ...over,
  },
});

const turn = (n: number): AgentEvent => ({
  type: 'turn_started',
  turn: n,
  attempt: 1,
  isRetry: false,
  isFinalTurn: false,
});

const run = (over: Partial<CompactionRun> = {}): AgentEvent => ({
  type: 'compaction',
  run: {
    index: 1,
    turn: 6,
    trigger: 'turn_projection',
    outcome: 'compacted',
    beforeTokens: 11200,
    afterTokens: 3100,
    limitTokens: 13000,
    thresholdTokens: 10400,
    messages: 14,
    fromTurn: 1,
    toTurn: 4,
    calls: 1,
    handle: 'out-7f3a',
    summary: 'Read the three logs; the error is in the parser.',
    provider: 'local',
    model: 'writer',
    durationMs: 60,
    ...over,
  },
});

const named = (spans: ReadableSpan[], name: string) => spans.filter((s) => s.name === name);
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

test('a compaction is an agent.compaction span under the session, its summary call under it', () => {
  const { exporter, feed, end } = traced();
  feed(
    turn(6),
    llm({ turn: 6 }),
    llm({ purpose: 'compaction', model: 'writer', latency: 30 }),
    run(),
    turn(7),
  );
  end();
  const spans = exporter.getFinishedSpans();
  const [session] = named(spans, 'invoke_agent researcher');
  const [compaction] = named(spans, 'agent.compaction');
  expect(compaction).toBeDefined();
  expect(parentOf(compaction!)).toBe(session!.spanContext().spanId);
  expect(compaction!.attributes).toMatchObject({
    'agent.compaction.outcome': 'compacted',
    'agent.compaction.trigger': 'turn_projection',
    'agent.compaction.before_tokens': 11200,
    'agent.compaction.after_tokens': 3100,
    'agent.compaction.handle': 'out-7f3a',
    'agent.compaction.messages': 14,
    'agent.compaction.from_turn': 1,
    'agent.compaction.to_turn': 4,
    'agent.turn': 6,
  });
  expect(compaction!.attributes).not.toHaveProperty('agent.compaction.summary');
  expect(compaction!.status.code).not.toBe(2);
  const chats = named(spans, 'chat writer');
  const summaryCall = chats.find((s) => s.attributes['agent.llm.purpose'] === 'compaction');
  expect(summaryCall && parentOf(summaryCall)).toBe(compaction!.spanContext().spanId);
  const turnCall = chats.find((s) => s.attributes['agent.llm.purpose'] === undefined);
  expect(named(spans, 'turn 6').map((s) => s.spanContext().spanId)).toContain(parentOf(turnCall!));
  expect(session!.attributes['agent.compactions']).toBe(1);
});

test('a failed compaction is an error span with its reason; a summary call left without its event still has a span', () => {
  const { exporter, feed, end } = traced();
  feed(
    turn(3),
    llm({ purpose: 'compaction', status: 'failed', error: 'timed out' }),
    run({
      outcome: 'failed',
      afterTokens: 11200,
      handle: undefined,
      summary: undefined,
      error: 'every summary call failed',
      exhausted: true,
      calls: 2,
    }),
    llm({ purpose: 'compaction', turn: 4 }),
  );
  end();
  const spans = exporter.getFinishedSpans();
  const [compaction] = named(spans, 'agent.compaction');
  expect(compaction!.status).toEqual({ code: 2, message: 'every summary call failed' });
  expect(compaction!.attributes).toMatchObject({
    'agent.compaction.outcome': 'failed',
    'error.type': 'compaction_failed',
    'agent.compaction.exhausted': true,
    'agent.compaction.calls': 2,
  });
  expect(compaction!.attributes).not.toHaveProperty('agent.compaction.handle');
  const summaryCalls = named(spans, 'chat writer');
  expect(summaryCalls).toHaveLength(2);
  const [session] = named(spans, 'invoke_agent researcher');
  expect(summaryCalls.map(parentOf)).toEqual([
    compaction!.spanContext().spanId,
    session!.spanContext().spanId,
  ]);
  expect(session!.attributes).not.toHaveProperty('agent.compactions');
});
