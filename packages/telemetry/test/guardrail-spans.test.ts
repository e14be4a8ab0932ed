// Guardrail runs as spans: one `guardrail <name>` span per run with its latency and verdict, the
// tripping guardrail on the session span; a tool policy decision on the call's span.
import { createAgentSession, guardrail } from '@agent/core';
import type { AgentEventMeta } from '@agent/protocol';
import { finalReport, scriptedModel, toolCalls } from '@agent/testkit';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterEach, expect, test } from 'vitest';
import { startSessionTrace, traceSession } from '../src/index.js';
import { adder } from './fixtures/adder-tool.js';

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
  trace.disable();
  context.disable();
});

function register(): InMemorySpanExporter {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(provider);
  cleanup = () => provider.shutdown();
  return exporter;
}

test('a span per guardrail run; a report the output guardrail blocks makes the session span an error naming it', async () => {
  const exporter = register();
  const argsCheck = guardrail({
    name: 'small-numbers',
    on: 'tool',
    phases: ['arguments'],
    check: async () => {
      await new Promise((resolve) => setTimeout(resolve, 30));
      return { verdict: 'pass' };
    },
  });
  const noSecret = guardrail({
    name: 'no-secret',
    on: 'output',
    phases: ['report'],
    check: (subject) =>
      subject.text.includes('SECRET')
        ? { verdict: 'block', reason: 'rule: secret marker' }
        : { verdict: 'pass' },
  });
  const traced = traceSession(
    {
      prompt: 'Add.',
      name: 'calc-agent',
      sessionId: 'session-g',
      models: [
        {
          client: scriptedModel([toolCalls(['add', { a: 1, b: 2 }]), finalReport('3, and the SECRET')], {
            provider: 'openai',
            model: 'gpt-test',
          }),
        },
      ],
      tools: [adder],
      guardrails: [argsCheck, noSecret],
    },
    { name: 'calc-agent', sessionId: 'session-g', agentPath: 'calc-agent' },
  )!;
  const result = await traced.run(() => createAgentSession(traced.config).run());
  expect(result.exitCode).toBe('EXIT-GUARDRAIL');
  const spans = exporter.getFinishedSpans();
  const args = spans.find((s) => s.name === 'guardrail small-numbers')!;
  expect(args.attributes).toMatchObject({
    'agent.guardrail.name': 'small-numbers',
    'agent.guardrail.stage': 'tool',
    'agent.guardrail.phase': 'arguments',
    'agent.guardrail.outcome': 'pass',
    'gen_ai.tool.name': 'add',
  });
  expect(typeof args.attributes['agent.tool.call_id']).toBe('string');
  expect(args.status.code).toBe(0);
  // The span covers the check's latency (30 ms of sleep, generous bounds).
  const ms = (args.endTime[0] - args.startTime[0]) * 1000 + (args.endTime[1] - args.startTime[1]) / 1e6;
  expect(ms).toBeGreaterThanOrEqual(25);
  const block = spans.find((s) => s.name === 'guardrail no-secret')!;
  expect(block.attributes).toMatchObject({
    'agent.guardrail.stage': 'output',
    'agent.guardrail.phase': 'report',
    'agent.guardrail.outcome': 'block',
    'agent.guardrail.reason': 'rule: secret marker',
  });
  expect(block.status).toEqual({ code: 2, message: 'rule: secret marker' });
  const turn2 = spans.find((s) => s.name === 'turn 2')!;
  expect(block.parentSpanContext?.spanId).toBe(turn2.spanContext().spanId);
  const session = spans.find((s) => s.name === 'invoke_agent calc-agent')!;
  expect(session.attributes).toMatchObject({
    'agent.exit_code': 'EXIT-GUARDRAIL',
    'agent.guardrail.tripped': 'no-secret',
  });
  expect(session.status.code).toBe(2);
  expect(session.status.message).toContain('guardrail no-secret blocked the report');
  // Nothing the guardrail blocked is in any span.
  expect(JSON.stringify(spans.map((s) => [s.attributes, s.events, s.status]))).not.toContain('SECRET');
});

test('a tool policy decision: attributes and an event on the call span; a denied call an event on the turn', () => {
  const exporter = register();
  const session = startSessionTrace({ name: 'a', sessionId: 's', agentPath: 'a' })!;
  const meta: AgentEventMeta = { isMaster: true, isFinal: false, sessionId: 's', agentPath: 'a' };
  session.handle({ type: 'turn_started', turn: 1, attempt: 1, isRetry: false, isFinalTurn: false }, meta);
  session.handle(
    {
      type: 'tool_policy',
      verdict: {
        callId: 'c1',
        tool: 'http__post',
        decision: 'ask',
        rule: 0,
        ruleName: 'big payments',
        reason: 'over 100',
      },
    },
    meta,
  );
  session.handle(
    {
      type: 'tool_policy',
      verdict: { callId: 'c2', tool: 'http__post', decision: 'deny', rule: 1, ruleName: 'no deletes' },
    },
    meta,
  );
  session.handle(
    { type: 'progress', event: { type: 'tool_started', agentPath: 'a', tool: 'http__post', callId: 'c1' } },
    meta,
  );
  session.end({
    result: {
      success: true,
      exitCode: 'EXIT-SUCCESS',
      conversation: [],
      logs: [],
      accounting: [],
      sessionId: 's',
    } as never,
  });
  const spans = exporter.getFinishedSpans();
  const call = spans.find((s) => s.name === 'execute_tool http__post')!;
  expect(call.attributes).toMatchObject({
    'agent.tool.policy.decision': 'ask',
    'agent.tool.policy.rule': 'big payments',
    'agent.tool.policy.reason': 'over 100',
  });
  expect(call.events.map((e) => e.name)).toEqual(['tool_policy']);
  const turn = spans.find((s) => s.name === 'turn 1')!;
  expect(turn.events).toMatchObject([
    {
      name: 'tool_policy',
      attributes: { 'agent.tool.policy.decision': 'deny', 'gen_ai.tool.call.id': 'c2' },
    },
  ]);
});
