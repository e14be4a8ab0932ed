// `observe`: a watcher (a tracer) that sees the session's structure without changing the session.
import type { AgentEvent } from '@agent/protocol';
import { scriptedModel } from '@agent/testkit';
import { expect, test } from 'vitest';
import { createAgentSession } from '../../src/index.js';
import { memoryTools } from '../helpers/memory-tools.js';
import { NONCE, xmlReport } from '../helpers/scenario.js';

function session(watch: { observe?: (event: AgentEvent) => void; onEvent?: (event: AgentEvent) => void }) {
  const model = scriptedModel([{ toolCalls: [{ name: 'a', arguments: {} }] }, { text: xmlReport('done') }], {
    provider: 'p1',
    model: 'm1',
  });
  const run = createAgentSession({
    prompt: 'Do the task.',
    internal: { nonce: NONCE },
    models: [{ client: model }],
    tools: [memoryTools('t', { a: () => 'A' })],
    ...watch,
  }).run();
  return { model, run };
}

test('an observer gets turns, accounting, tool progress and the report, but no streamed text and no logs', async () => {
  const seen: AgentEvent[] = [];
  const { run } = session({ observe: (event) => seen.push(event) });
  const result = await run;
  expect(result.success).toBe(true);
  const types = new Set(seen.map((event) => event.type));
  for (const type of ['turn_started', 'accounting', 'progress', 'final_report'])
    expect(types).toContain(type);
  for (const type of ['output', 'assistant_text', 'thinking', 'log']) expect(types).not.toContain(type);
  expect(seen.filter((event) => event.type === 'accounting')).toHaveLength(result.accounting.length);
});

test('an observer does not change what the model is sent; an onEvent listener is offered agent__task_status', async () => {
  const bare = session({});
  const observed = session({ observe: () => {} });
  const listened = session({ onEvent: () => {} });
  await Promise.all([bare.run, observed.run, listened.run]);
  const tools = (model: typeof bare.model) => model.requests.map((r) => r.tools.map((tool) => tool.name));
  expect(tools(observed.model)).toEqual(tools(bare.model));
  expect(observed.model.requests.map((r) => r.messages)).toEqual(bare.model.requests.map((r) => r.messages));
  expect(tools(bare.model).flat()).not.toContain('agent__task_status');
  expect(tools(listened.model)[0]).toContain('agent__task_status');
});

test('an observer that is not a function is a configuration error naming it', async () => {
  const result = await createAgentSession({
    prompt: 'Do the task.',
    models: [{ client: scriptedModel([]) }],
    observe: 'yes' as never,
  }).run();
  expect(result.success).toBe(false);
  expect(result.error).toMatch(/observe/);
});
