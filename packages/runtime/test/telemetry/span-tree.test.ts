import { fileURLToPath } from 'node:url';
import { finalReport, toolCall, toolCalls } from '@agent/testkit';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createAgentRunner } from '../../src/index.js';
import { startRoleServer } from '../helpers/role-server.js';
import { agentFile, isolated, tempTree } from '../helpers/temp-tree.js';
import { registerInMemoryTracing, spanTree } from './otel-setup.js';

// @agent/mcp's stdio fault fixture: its `hang` tool never answers, so a short toolTimeout fails it.
const FAULT_SERVER = fileURLToPath(new URL('../../../mcp/test/fixtures/fault-server.mjs', import.meta.url));

let tracing: ReturnType<typeof registerInMemoryTracing>;
beforeEach(() => {
  tracing = registerInMemoryTracing();
});
afterEach(async () => {
  await tracing.unregister();
});

function byName(spans: readonly ReadableSpan[], name: string): ReadableSpan {
  const span = spans.find((s) => s.name === name);
  if (span === undefined) throw new Error(`no span ${name} in ${spans.map((s) => s.name).join(', ')}`);
  return span;
}

async function runScripted(traceparent?: string) {
  const roles = await startRoleServer({
    'parent-model': [
      toolCalls(['agent__counter', { prompt: 'Count: a, b, c.' }], ['f__hang']),
      finalReport('There are 3.'),
    ],
    'child-model': [
      toolCall('agent__task_status', { status: 'in-progress', done: '', pending: '', now: 'counting' }),
      finalReport('3'),
    ],
  });
  const root = tempTree({
    '.ai-agent.json': {
      providers: { p: { type: 'openai-compatible', baseUrl: `${roles.server.url}/v1`, apiKey: 'k' } },
      mcpServers: { f: { type: 'stdio', command: [process.execPath, FAULT_SERVER] } },
    },
    'parent.ai': agentFile('models: [p/parent-model]\ntools: [f]\nagents: [./counter.ai]\ntoolTimeout: 500'),
    'counter.ai': agentFile('models: [p/child-model]\ndescription: Counts things.'),
  });
  const runner = await createAgentRunner('parent.ai', isolated(root));
  try {
    const result = await runner.run('How many?', traceparent === undefined ? {} : { traceparent });
    roles.assertAllConsumed();
    return result;
  } finally {
    await runner.close();
    await roles.server.close();
  }
}

describe('OpenTelemetry spans of a run (in-memory exporter)', () => {
  test('session -> turn -> LLM call / tool call -> child session, the failed tool call recorded as an error', async () => {
    const result = await runScripted();
    expect(result.success, result.error).toBe(true);
    const spans = tracing.exporter.getFinishedSpans();
    expect(spanTree(spans)).toEqual([
      'invoke_agent parent',
      '  turn 1',
      '    chat parent-model',
      '    execute_tool agent__counter',
      '      invoke_agent counter',
      '        turn 1',
      '          chat child-model',
      '        turn 2',
      '          chat child-model',
      '    execute_tool f__hang [ERROR]',
      '  turn 2',
      '    chat parent-model',
    ]);
    // One trace.
    expect(new Set(spans.map((s) => s.spanContext().traceId)).size).toBe(1);
    const session = byName(spans, 'invoke_agent parent');
    expect(session.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'parent',
      'agent.session.id': result.sessionId,
      'agent.exit_code': result.exitCode,
      'gen_ai.usage.input_tokens': result.opTree?.totals.inputTokens,
      'gen_ai.usage.output_tokens': result.opTree?.totals.outputTokens,
      'agent.report.status': 'success',
      'agent.report.format': 'markdown',
    });
    expect(session.status.code).toBe(1);
    const llm = spans.find((s) => s.name === 'chat parent-model')!;
    const firstLlm = result.accounting.find((e) => e.type === 'llm' && e.model === 'parent-model');
    expect(llm.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'p',
      'gen_ai.request.model': 'parent-model',
      'gen_ai.response.model': 'parent-model',
      'gen_ai.usage.input_tokens': firstLlm?.type === 'llm' ? firstLlm.tokens.inputTokens : -1,
    });
    const failed = byName(spans, 'execute_tool f__hang');
    expect(failed.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'f__hang',
      'agent.tool.server': 'f',
      'error.type': 'timeout',
    });
    expect(failed.attributes['gen_ai.tool.call.id']).toEqual(expect.any(String));
    expect(failed.events.map((e) => e.name)).toEqual(['exception']);
    expect(String(failed.events[0]?.attributes?.['exception.message'])).toBe('no answer within 500 ms');
    const child = byName(spans, 'invoke_agent counter');
    expect(child.attributes).toMatchObject({
      'agent.path': 'parent.counter',
      'gen_ai.agent.name': 'counter',
    });
  });

  test('a run given a traceparent continues that trace: same trace id, the session span is the remote span’s child', async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const parentSpanId = '00f067aa0ba902b7';
    const result = await runScripted(`00-${traceId}-${parentSpanId}-01`);
    expect(result.success, result.error).toBe(true);
    const spans = tracing.exporter.getFinishedSpans();
    expect(spans.every((s) => s.spanContext().traceId === traceId)).toBe(true);
    const session = byName(spans, 'invoke_agent parent');
    expect(session.parentSpanContext?.spanId).toBe(parentSpanId);
    expect(session.parentSpanContext?.isRemote).toBe(true);
  });
});
