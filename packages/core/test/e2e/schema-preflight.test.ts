import { createModelClient } from '@agent/providers';
import { finalReport, type ModelServer, startModelServer } from '@agent/testkit';
import { afterEach, describe, expect, test } from 'vitest';
import { runAgent } from '../../src/index.js';

// Schemas from outside are checked before any model call: the testkit server (over the
// official OpenAI SDK, on loopback) records every request, so "no call" is counted there.
const NONCE = 'schema00';

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function run(
  schema: Record<string, unknown>,
  options: { contextWindow?: number; answers?: string[] } = {},
) {
  server = await startModelServer({
    steps: (options.answers ?? []).map((answer) => finalReport(answer, { format: 'json' })),
  });
  const client = createModelClient({
    type: 'openai',
    provider: 'openai',
    model: 'test-model',
    apiKey: 'sk-test',
    baseURL: `${server.url}/v1`,
  });
  const result = await runAgent({
    internal: { nonce: NONCE },
    models: [
      { client, ...(options.contextWindow === undefined ? {} : { contextWindow: options.contextWindow }) },
    ],
    prompt: 'Answer as JSON',
    output: { format: 'json', schema },
    maxRetries: 2,
  });
  return { result, requests: server.requests.length };
}

function nested(levels: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: 'string' };
  for (let i = 0; i < levels; i++) schema = { type: 'object', properties: { a: schema } };
  return schema;
}

/** About `bytes` of schema: many described string properties. */
function bigSchema(bytes: number): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const property = { type: 'string', description: `Field number ${i} of a schema far too large to send.` };
    properties[`field_${i}`] = property;
    size += JSON.stringify(property).length + 12;
  }
  return { type: 'object', properties };
}

describe('core refuses a bad output schema before any model call', () => {
  test('{"type":"banana"}: EXIT-CONFIGURATION naming the problem, no request', async () => {
    const { result, requests } = await run({ type: 'banana' });
    expect(result.success).toBe(false);
    expect(result.exitCode).toBe('EXIT-CONFIGURATION');
    expect(result.inputRejected).toBe(true);
    expect(result.error).toMatch(/^the output schema is not a usable JSON Schema: \/type: must be one of /);
    expect(result.error).toContain('(got "banana")');
    expect(requests).toBe(0);
  });

  test('a 20,000-level schema: refused by depth, no stack overflow, no request', async () => {
    const { result, requests } = await run(nested(20_000));
    expect(result.exitCode).toBe('EXIT-CONFIGURATION');
    expect(result.error).toContain('nests deeper than the limit of 64 levels');
    expect(requests).toBe(0);
  });

  test('a ~1 MB schema with a small context window: does not fit, no request', async () => {
    const { result, requests } = await run(bigSchema(1_000_000), { contextWindow: 32_768 });
    expect(result.exitCode).toBe('EXIT-CONFIGURATION');
    expect(result.inputRejected).toBe(true);
    expect(result.error).toMatch(
      /^the output schema \(about \d+ tokens .*\) and the prompt \(about \d+ tokens\) do not fit the context window of openai\/test-model: 32768 tokens/,
    );
    expect(requests).toBe(0);
  });

  test('a schema that fits the window but is over the size limit is refused by size, no request', async () => {
    const { result, requests } = await run(bigSchema(300_000), { contextWindow: 1_000_000 });
    expect(result.error).toContain('is larger than the limit of 65536 bytes as JSON');
    expect(requests).toBe(0);
  });

  test('a pattern RE2 cannot run is refused, saying so, no request', async () => {
    const { result, requests } = await run({ type: 'object', properties: { a: { pattern: '(a)\\1' } } });
    expect(result.error).toContain('uses a backreference');
    expect(requests).toBe(0);
  });

  test('the catastrophic pattern checks a long report in linear time and the run ends', async () => {
    const schema = { type: 'object', properties: { word: { type: 'string', pattern: '^(a+)+$' } } };
    // A backtracking engine would spend longer than the universe's age on the first report.
    const mismatch = `${'a'.repeat(50_000)}!`;
    const word = 'a'.repeat(50_000);
    const { result, requests } = await run(schema, {
      answers: [JSON.stringify({ word: mismatch }), JSON.stringify({ word })],
    });
    expect(result.success).toBe(true);
    expect(result.finalReport?.content_json).toEqual({ word });
    expect(requests).toBe(2);
    const retry = server?.requests[1]?.body as { messages?: { content?: unknown }[] } | undefined;
    // The model was told what was wrong with its first report.
    expect(JSON.stringify(retry?.messages?.at(-2))).toContain('/word: must match pattern');
  });
});
