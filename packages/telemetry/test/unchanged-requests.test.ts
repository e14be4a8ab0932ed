// Turning tracing on must not change what the model sees: the same session, run once untraced and
// once traced into a registered provider, sends the same requests (tools offered, messages).
import { createAgentSession } from '@agent/core';
import { finalReport, type RecordedRequest, scriptedModel, toolCalls } from '@agent/testkit';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterEach, expect, test } from 'vitest';
import { traceSession } from '../src/index.js';
import { adder } from './fixtures/adder-tool.js';

/** One session with no event listener of its own (as a server runs it); the requests its model got. */
async function playSession(
  traced: boolean,
): Promise<{ requests: readonly RecordedRequest[]; report: string | undefined }> {
  const model = scriptedModel([toolCalls(['add', { a: 1, b: 2 }]), finalReport('3')], {
    provider: 'openai',
    model: 'gpt-test',
  });
  const config = {
    prompt: 'Add 1 and 2.',
    name: 'calc-agent',
    sessionId: 'session-1',
    models: [{ client: model }],
    tools: [adder],
    // The notice's nonce is fixed so that the two runs' requests can be compared byte for byte.
    internal: { nonce: 'fixed-nonce' },
  };
  const wrapped = traced
    ? traceSession(config, { name: 'calc-agent', sessionId: 'session-1', agentPath: 'calc-agent' })
    : undefined;
  if (traced && wrapped === undefined) throw new Error('tracing is not on');
  const result = await (wrapped === undefined
    ? createAgentSession(config).run()
    : wrapped.run(() => createAgentSession(wrapped.config).run()));
  return { requests: model.requests, report: result.success ? result.finalReport.content : result.error };
}

let provider: BasicTracerProvider | undefined;
afterEach(async () => {
  await provider?.shutdown();
  provider = undefined;
  trace.disable();
  context.disable();
});

test('tracing on sends the model the same requests as tracing off: same tools offered, same messages', async () => {
  const off = await playSession(false);
  const exporter = new InMemorySpanExporter();
  provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(provider);
  const on = await playSession(true);

  expect(on.report).toBe('3');
  expect(off.report).toBe('3');
  // Tracing was on: the session's spans were made.
  expect(exporter.getFinishedSpans().map((span) => span.name)).toContain('invoke_agent calc-agent');
  const toolNames = (run: typeof on) => run.requests.map((request) => request.tools.map((tool) => tool.name));
  // No progress tool for a tracer: agent__task_status is offered only to a real listener.
  expect(toolNames(on).flat()).not.toContain('agent__task_status');
  expect(toolNames(on)).toEqual(toolNames(off));
  expect(on.requests.map((request) => request.messages)).toEqual(off.requests.map((r) => r.messages));
  expect(on.requests.map((request) => request.tools)).toEqual(off.requests.map((r) => r.tools));
});
