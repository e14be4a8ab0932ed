import { ConfigError } from '@agent/protocol';
import { startModelServer } from '@agent/testkit';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { model } from '../src/index.js';

let server: Awaited<ReturnType<typeof startModelServer>>;
beforeAll(async () => {
  server = await startModelServer({ handler: () => ({ text: 'hi' }) });
});
afterAll(() => server.close());

async function ask(client: ReturnType<typeof model>): Promise<string> {
  let said = '';
  for await (const event of client.stream({ messages: [{ role: 'user', content: 'hello' }] })) {
    if (event.type === 'text-delta') said += event.text;
  }
  return said;
}

test('openai/<model> reads OPENAI_API_KEY and OPENAI_BASE_URL and speaks Chat Completions', async () => {
  const env = { OPENAI_API_KEY: 'sk-shorthand-test', OPENAI_BASE_URL: `${server.url}/v1` };
  const client = model('openai/gpt-4.1-mini', { env });
  expect([client.provider, client.model]).toEqual(['openai', 'gpt-4.1-mini']);
  expect(await ask(client)).toBe('hi');
  const request = server.requests.at(-1)!;
  expect(request.route).toBe('POST /v1/chat/completions');
  expect(request.model).toBe('gpt-4.1-mini');
  expect(request.headers?.authorization).toBe('[redacted]');
});

test('anthropic/<model> reads ANTHROPIC_API_KEY and ANTHROPIC_BASE_URL; the model name keeps later slashes', async () => {
  const env = { ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: server.url };
  expect(await ask(model('anthropic/claude-sonnet-4-5', { env }))).toBe('hi');
  expect(server.requests.at(-1)?.api).toBe('anthropic');
  const routed = model('openrouter/anthropic/claude-sonnet-4.5', {
    env: { OPENROUTER_API_KEY: 'k', OPENROUTER_BASE_URL: `${server.url}/v1` },
  });
  expect([routed.provider, routed.model]).toEqual(['openrouter', 'anthropic/claude-sonnet-4.5']);
  expect(await ask(routed)).toBe('hi');
  expect(server.requests.at(-1)?.model).toBe('anthropic/claude-sonnet-4.5');
});

test('a missing key names the variable; an unknown prefix lists the known ones; options win over the environment', () => {
  expect(() => model('openai/gpt-4.1-mini', { env: {} })).toThrow(ConfigError);
  expect(() => model('openai/gpt-4.1-mini', { env: {} })).toThrow(
    'model("openai/gpt-4.1-mini"): OPENAI_API_KEY is not set: set it in the environment, or pass { apiKey }',
  );
  expect(() => model('acme/x', { env: {} })).toThrow(
    /unknown provider "acme"; known: openai, openai-responses, anthropic/,
  );
  expect(() => model('gpt-4.1-mini', { env: {} })).toThrow(/give "provider\/model"/);
  const client = model('openai/gpt-4.1-mini', { env: {}, apiKey: 'sk-given' });
  expect(client.provider).toBe('openai');
});
