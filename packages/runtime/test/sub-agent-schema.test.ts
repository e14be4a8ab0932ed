import { setSchemaDefaults } from '@agent/schema';
import { finalReport, startModelServer } from '@agent/testkit';
import { expect, test } from 'vitest';
import { runAgentFile } from '../src/index.js';
import { agentFile, isolated, localConfig, tempTree } from './helpers/temp-tree.js';

// A model's output_schema is checked before the sub-agent's first model call. The testkit
// server answers both agents over HTTP and records every request: the child must get none.

/** A schema `levels` JSON levels deep, compactly: `{"not":{"not":...{}}}`. */
function nestedText(levels: number): string {
  return `${'{"not":'.repeat(levels - 1)}{}${'}'.repeat(levels - 1)}`;
}

function bigSchemaText(bytes: number): string {
  const properties: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const property = `"field_${i}":{"type":"string","description":"Field number ${i} of a schema far too large."}`;
    properties.push(property);
    size += property.length + 1;
  }
  return `{"type":"object","properties":{${properties.join(',')}}}`;
}

/**
 * Raw tool-call arguments: JSON text, so the 20,000-level schema needs no recursive stringify.
 * Scripted usage spares the testkit server from sizing the (deep) conversation itself.
 */
const usage = { inputTokens: 100, outputTokens: 10 };
const call = (id: string, schemaText: string) => ({
  usage,
  toolCalls: [
    {
      id,
      name: 'agent__counter',
      arguments: `{"prompt":"Count the cities: Oslo, Rome, Lima.","output_schema":${schemaText}}`,
    },
  ],
});

test('bad, 20,000 levels deep and too large (400 KB) output_schema values reach the parent as tool errors; the child makes no call', async () => {
  const server = await startModelServer({
    steps: [
      call('banana', '{"type":"banana"}'),
      call('deep', nestedText(20_000)),
      call('huge', bigSchemaText(400_000)),
      finalReport('gave up', { answer: { usage } }),
    ],
  });
  try {
    const root = tempTree({
      'agent.json': localConfig({}, `${server.url}/v1`),
      'parent.ai': agentFile(
        'models: [local/parent-model]\nagents: [./counter.ai]\nmaxTurns: 6\ncontextWindow: 2000000',
        'You delegate counting.',
      ),
      'counter.ai': agentFile('models: [local/child-model]\ncontextWindow: 32768', 'You count things.'),
    });
    const result = await runAgentFile('parent.ai', 'How many cities?', isolated(root));
    expect(result.error).toBeUndefined();
    expect(server.requests.map((r) => r.model)).toEqual([
      'parent-model',
      'parent-model',
      'parent-model',
      'parent-model',
    ]);
    // What the parent model received, in its last request.
    const seen = server.requests.at(-1)?.messages ?? [];
    const toolText = (id: string) =>
      seen.find((m) => m.role === 'tool' && (m as { toolCallId?: string }).toolCallId === id)?.content ?? '';
    const refused = 'sub-agent counter refused the call before any model call: ';
    expect(toolText('banana')).toContain(
      `${refused}the output schema is not a usable JSON Schema: /type: must be one of`,
    );
    expect(toolText('banana')).toContain('(got \\"banana\\")'.replace(/\\/g, ''));
    expect(toolText('deep')).toMatch(/JSON Schema: (\/not)+…: nests deeper than the limit of 64 levels\)$/);
    expect(toolText('huge')).toMatch(
      /the output schema \(about \d+ tokens .*\) and the prompt \(about \d+ tokens\) do not fit the context window of local\/child-model: 32768 tokens/,
    );
  } finally {
    await server.close();
  }
}, 60_000);

test("a model's output_schema is compiled in the worker thread, not on the event loop: its compile time limit applies", async () => {
  // compileSchema on the event loop has no time limit; the worker thread's is compileTimeoutMs.
  // At 1 ms, a 50 KB schema cannot compile there in time, so the refusal proves where it went.
  setSchemaDefaults({ compileTimeoutMs: 1 });
  const server = await startModelServer({
    steps: [call('big', bigSchemaText(50_000)), finalReport('gave up', { answer: { usage } })],
  });
  try {
    const root = tempTree({
      'agent.json': localConfig({}, `${server.url}/v1`),
      'parent.ai': agentFile(
        'models: [local/parent-model]\nagents: [./counter.ai]\nmaxTurns: 3\ncontextWindow: 2000000',
        'You delegate counting.',
      ),
      'counter.ai': agentFile('models: [local/child-model]\ncontextWindow: 2000000', 'You count things.'),
    });
    const result = await runAgentFile('parent.ai', 'How many cities?', isolated(root));
    expect(result.error).toBeUndefined();
    expect(server.requests.map((r) => r.model)).toEqual(['parent-model', 'parent-model']);
    const seen = server.requests.at(-1)?.messages ?? [];
    const tool = seen.find((m) => m.role === 'tool')?.content ?? '';
    expect(tool).toContain('sub-agent counter refused the call before any model call: the output schema is');
    expect(tool).toContain('it took longer than 1 ms to compile (the limit, compileTimeoutMs)');
  } finally {
    setSchemaDefaults({});
    await server.close();
  }
}, 60_000);
