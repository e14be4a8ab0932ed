import { createModelClient, type ProviderType } from '@agent/providers';
import { finalReport, type ModelServer, startModelServer } from '@agent/testkit';
import { afterEach, describe, expect, test } from 'vitest';
import { runAgent } from '../../src/index.js';
import { memoryTools } from '../helpers/memory-tools.js';

// providers + core, through the official SDKs over real HTTP to the testkit server.
const NONCE = 'e2e0e2e0';
/** The report's text: the testkit's builder, the nonce filled in by the server. */
const report = (payload: object | string) => String(finalReport(payload).text);

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function client(type: ProviderType, url: string, model: string) {
  const baseURL = type === 'anthropic' ? url : `${url}/v1`;
  return createModelClient({ type, provider: type, model, apiKey: 'sk-test-secret-key', baseURL });
}

const providers: ProviderType[] = ['openai', 'openai-responses', 'anthropic', 'openai-compatible'];

describe.each(providers)('core over %s', (type) => {
  test('a tool call, its result, then a JSON report validated against the schema', async () => {
    server = await startModelServer({
      strict: true,
      steps: [
        {
          text: 'Looking it up.',
          toolCalls: [{ id: 'call_1', name: 'weather', arguments: { city: 'Athens' } }],
          usage: { inputTokens: 50, outputTokens: 10 },
        },
        {
          text: ['Done. ', report({ city: 'Athens', tempC: 31 })],
          usage: { inputTokens: 80, outputTokens: 20 },
        },
      ],
    });
    const tools = memoryTools('wx', {
      weather: {
        inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        handler: (args) => `${String(args.city)}: 31C, sunny`,
      },
    });
    const outputs: string[] = [];
    const result = await runAgent({
      internal: { nonce: NONCE },
      models: [{ client: client(type, server.url, 'test-model') }],
      tools: [tools],
      prompt: 'Weather in Athens as JSON',
      output: {
        format: 'json',
        schema: {
          type: 'object',
          required: ['city', 'tempC'],
          properties: { city: { type: 'string' }, tempC: { type: 'number' } },
        },
      },
      onEvent: (event) => void (event.type === 'output' && outputs.push(event.text)),
    });
    expect(result.success).toBe(true);
    expect(result.exitCode).toBe('EXIT-FINAL-ANSWER');
    expect(result.finalReport?.content_json).toEqual({ city: 'Athens', tempC: 31 });
    expect(tools.calls).toEqual([{ name: 'weather', arguments: { city: 'Athens' } }]);
    expect(outputs.join('')).toContain('"tempC": 31');
    // The second request carried the tool result back, in that API's own shape.
    const second = JSON.stringify(server.requests[1]!.body);
    expect(second).toContain('Athens: 31C, sunny');
    expect(second).toContain('call_1');
    const llm = result.accounting.filter((e) => e.type === 'llm');
    expect(llm.map((e) => e.tokens.inputTokens)).toEqual([50, 80]);
    // Secrets never reach logs, accounting or the recorded request headers.
    const everything = JSON.stringify({
      logs: result.logs,
      accounting: result.accounting,
      headers: server.requests.map((r) => r.headers),
    });
    expect(everything).not.toContain('sk-test-secret-key');
  });
});

test('an overloaded Anthropic target falls back to an OpenAI one within the turn', async () => {
  server = await startModelServer({
    strict: true,
    steps: [{ error: { kind: 'server', status: 529 } }, finalReport('fallback worked')],
  });
  const result = await runAgent({
    internal: { nonce: NONCE },
    models: [
      { client: client('anthropic', server.url, 'claude-test') },
      { client: client('openai', server.url, 'gpt-test') },
    ],
    prompt: 'hello',
  });
  expect(result.success).toBe(true);
  expect(result.finalReport?.content).toBe('fallback worked');
  const llm = result.accounting.filter((e) => e.type === 'llm');
  expect(llm.map((e) => [e.provider, e.status])).toEqual([
    ['anthropic', 'failed'],
    ['openai', 'ok'],
  ]);
  expect(server.requests.map((r) => r.api)).toEqual(['anthropic', 'openai-chat']);
});

test('a rate-limited call honours retry-after from the real response headers', async () => {
  server = await startModelServer({
    strict: true,
    steps: [{ error: { kind: 'rate_limit', retryAfterMs: 1200 } }, finalReport('after waiting')],
  });
  const waits: number[] = [];
  const result = await runAgent({
    internal: { nonce: NONCE, sleep: async (ms) => void waits.push(ms) },
    models: [{ client: client('openai', server.url, 'gpt-test') }],
    prompt: 'hello',
  });
  expect(result.success).toBe(true);
  expect(waits).toEqual([1200]);
});

test('an abort while the server streams slowly ends the run promptly', async () => {
  server = await startModelServer({
    strict: true,
    steps: [{ text: ['a', 'b', 'c', 'd', 'e', 'f', 'g'], tokenDelayMs: 1000 }],
  });
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 300);
  const started = Date.now();
  const result = await runAgent({
    internal: { nonce: NONCE },
    models: [{ client: client('openai', server.url, 'gpt-test') }],
    prompt: 'hello',
    signal: controller.signal,
  });
  expect(Date.now() - started).toBeLessThan(3000);
  expect(result.exitCode).toBe('EXIT-ABORTED');
});
