// Issue 24, item 3: `stream_options.include_usage` per provider, and extraBody over anything the
// client sets. The strict server's /mistral prefix refuses the field as api.mistral.ai does (422).
import { describe, expect, it } from 'vitest';
import { createModelClient, resolveRequestRules } from '../src/index.js';
import { collectError } from './helpers.js';
import { clientAt, collect, strictServers, type Target } from './strict-targets.js';

const server = strictServers();
const hi = { messages: [{ role: 'user' as const, content: 'hi' }] };
const mistral = (config: Target['config'] = {}): Target => ({
  type: 'openai-compatible',
  model: 'mistral-large-latest',
  flavour: 'mistral',
  config,
});

describe('stream_options.include_usage', () => {
  it('a server that refuses it answers 422, which the client reports as a bad request with the server words', async () => {
    const s = await server();
    const { error } = await collectError(clientAt(s, mistral()).stream(hi));
    expect(error).toMatchObject({ kind: 'bad_request', status: 422, retryable: false });
    expect(error.providerMessage).toContain('"loc":["body","stream_options"]');
    expect(error.providerMessage).toContain('Extra inputs are not permitted');
  });

  it('streamUsage: false leaves it out, and the call is accepted', async () => {
    const s = await server();
    s.push({ text: 'Bonjour' });
    const answer = await collect(clientAt(s, mistral({ streamUsage: false })).stream(hi));
    expect(answer.text).toBe('Bonjour');
    expect(s.requests[0]?.body).not.toHaveProperty('stream_options');
  });

  it('is off by default for api.mistral.ai, on for other servers', () => {
    const base = { type: 'openai-compatible' as const, provider: 'p', model: 'mistral-large-latest' };
    expect(resolveRequestRules({ ...base, baseURL: 'https://api.mistral.ai/v1' }).streamUsage).toBe(false);
    expect(resolveRequestRules({ ...base, baseURL: 'http://localhost:8000/v1' }).streamUsage).toBe(true);
  });

  it('extraBody removes it with null, or replaces it', async () => {
    const s = await server();
    s.push({ text: 'a' }, { text: 'b' });
    await collect(clientAt(s, mistral({ extraBody: { stream_options: null } })).stream(hi));
    expect(s.requests[0]?.body).not.toHaveProperty('stream_options');
    const openai: Target = {
      type: 'openai',
      model: 'gpt-4.1',
      config: { extraBody: { stream_options: { include_usage: false } } },
    };
    await collect(clientAt(s, openai).stream(hi));
    expect(((s.requests[1]?.body ?? {}) as Record<string, unknown>).stream_options).toEqual({
      include_usage: false,
    });
  });
});

describe('extraBody wins over anything the client sets', () => {
  it('a sampling parameter, the max-tokens field, the model name', async () => {
    const s = await server();
    s.push({ text: 'ok' });
    const target: Target = {
      type: 'openai-compatible',
      model: 'local',
      config: {
        extraBody: { temperature: 0.7, max_tokens: null, max_completion_tokens: 50, model: 'routed-name' },
      },
    };
    await collect(clientAt(s, target).stream({ ...hi, temperature: 0.1, maxOutputTokens: 10 }));
    expect(s.requests[0]?.body).toMatchObject({
      temperature: 0.7,
      max_completion_tokens: 50,
      model: 'routed-name',
    });
    expect(s.requests[0]?.body).not.toHaveProperty('max_tokens');
  });

  it('except `stream`, which the request decides: the config is refused with a message', () => {
    expect(() =>
      createModelClient({
        type: 'openai',
        provider: 'openai',
        model: 'gpt-4.1',
        apiKey: 'k',
        extraBody: { stream: false },
      }),
    ).toThrow(
      expect.objectContaining({
        code: 'configuration',
        field: 'extraBody.stream',
        message:
          "createModelClient: extraBody.stream is not allowed: whether a call streams is the request's `stream` option",
      }) as unknown as Error,
    );
  });
});
