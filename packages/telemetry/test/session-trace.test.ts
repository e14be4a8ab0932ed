import { createAgentSession } from '@agent/core';
import type { AgentEvent, AgentEventMeta, ToolProvider } from '@agent/protocol';
import { finalReport, scriptedModel, toolCalls } from '@agent/testkit';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  AlwaysOffSampler,
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, test } from 'vitest';
import { traceSession } from '../src/index.js';

/** A calculator whose `divide` fails on zero and which notes the span active while it runs. */
function calculator(seen: string[]): ToolProvider {
  return {
    id: 'calc',
    listTools: async () => [
      { name: 'divide', description: 'a / b', inputSchema: { type: 'object' } },
      { name: 'add', description: 'a + b', inputSchema: { type: 'object' } },
    ],
    execute: async (call) => {
      seen.push(trace.getActiveSpan()?.spanContext().spanId ?? 'none');
      const { a, b } = call.arguments as { a: number; b: number };
      if (call.name === 'divide' && b === 0)
        return { ok: false, error: { kind: 'execution', message: 'division by zero' } };
      return { ok: true, text: String(call.name === 'add' ? a + b : a / b) };
    },
  };
}

function sessionConfig(seen: string[], events: AgentEvent[]) {
  return {
    prompt: 'Compute.',
    name: 'calc-agent',
    sessionId: 'session-1',
    models: [
      {
        client: scriptedModel(
          [toolCalls(['add', { a: 1, b: 2 }], ['divide', { a: 1, b: 0 }]), finalReport('3, and no quotient')],
          { provider: 'openai', model: 'gpt-test' },
        ),
      },
    ],
    tools: [calculator(seen)],
    onEvent: (event: AgentEvent, _meta: AgentEventMeta) => void events.push(event),
  };
}

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
  trace.disable();
  context.disable();
});

function register(sampler?: AlwaysOffSampler) {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(exporter)],
    ...(sampler === undefined ? {} : { sampler }),
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(provider);
  cleanup = () => provider.shutdown();
  return exporter;
}

describe('traceSession', () => {
  test('with no tracer provider registered it wires nothing: the config stays as it was', () => {
    const config = sessionConfig([], []);
    expect(
      traceSession(config, { name: 'calc-agent', sessionId: 'session-1', agentPath: 'calc-agent' }),
    ).toBeUndefined();
  });

  test('a sampler that drops the trace wires nothing either', () => {
    register(new AlwaysOffSampler());
    const config = sessionConfig([], []);
    expect(
      traceSession(config, { name: 'calc-agent', sessionId: 'session-1', agentPath: 'calc-agent' }),
    ).toBeUndefined();
  });

  test('a core session: spans per turn, LLM call and tool call; tools run in their call span; the failure is an error', async () => {
    const exporter = register();
    const seen: string[] = [];
    const events: AgentEvent[] = [];
    const traced = traceSession(sessionConfig(seen, events), {
      name: 'calc-agent',
      sessionId: 'session-1',
      agentPath: 'calc-agent',
    });
    expect(traced).toBeDefined();
    const result = await traced!.run(() => createAgentSession(traced!.config).run());
    expect(result.success).toBe(true);
    // The session's own listener still gets every event.
    expect(events.some((e) => e.type === 'final_report')).toBe(true);
    const spans = exporter.getFinishedSpans();
    const names = spans.map((s) => s.name).sort();
    expect(names).toEqual([
      'chat gpt-test',
      'chat gpt-test',
      'execute_tool add',
      'execute_tool divide',
      'invoke_agent calc-agent',
      'turn 1',
      'turn 2',
    ]);
    const divide = spans.find((s) => s.name === 'execute_tool divide')!;
    const add = spans.find((s) => s.name === 'execute_tool add')!;
    expect(divide.status).toEqual({ code: 2, message: 'division by zero' });
    expect(divide.attributes).toMatchObject({ 'error.type': 'execution', 'agent.tool.server': 'calc' });
    expect(divide.events[0]).toMatchObject({
      name: 'exception',
      attributes: { 'exception.message': 'division by zero' },
    });
    expect(add.status.code).toBe(0);
    // Each tool ran with its own call's span active.
    expect(seen.sort()).toEqual([add.spanContext().spanId, divide.spanContext().spanId].sort());
    const turn1 = spans.find((s) => s.name === 'turn 1')!;
    expect(add.parentSpanContext?.spanId).toBe(turn1.spanContext().spanId);
    const chat = spans.find((s) => s.name === 'chat gpt-test')!;
    expect(chat.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'gpt-test',
    });
    const session = spans.find((s) => s.name === 'invoke_agent calc-agent')!;
    expect(session.attributes).toMatchObject({
      'agent.session.id': 'session-1',
      'agent.exit_code': result.exitCode,
    });
  });

  test('a session that fails ends its span with status ERROR and the reason', async () => {
    const exporter = register();
    const config = {
      ...sessionConfig([], []),
      models: [
        {
          client: scriptedModel([{ error: { kind: 'auth', message: 'bad key' } }], {
            provider: 'openai',
            model: 'gpt-test',
          }),
        },
      ],
    };
    const traced = traceSession(config, {
      name: 'calc-agent',
      sessionId: 'session-1',
      agentPath: 'calc-agent',
    })!;
    const result = await traced.run(() => createAgentSession(traced.config).run());
    expect(result.success).toBe(false);
    const spans = exporter.getFinishedSpans();
    const session = spans.find((s) => s.name === 'invoke_agent calc-agent')!;
    expect(session.status.code).toBe(2);
    expect(session.status.message).toBe(result.error);
    const chat = spans.find((s) => s.name === 'chat gpt-test')!;
    expect(chat.status.code).toBe(2);
    expect(chat.events.map((e) => e.name)).toEqual(['exception']);
  });
});
