import { ConfigError } from '@agent/protocol';
import { describe, expect, it } from 'vitest';
import { createModelClient, type ModelClientConfig } from '../src/index.js';

const base: ModelClientConfig = {
  type: 'openai',
  provider: 'openai',
  model: 'gpt-4o',
  apiKey: 'sk-config-secret-123',
};

describe('createModelClient', () => {
  it('builds each type and reports what the runtime needs', () => {
    const openai = createModelClient({ ...base, contextWindow: 128_000 });
    expect(openai).toMatchObject({
      type: 'openai',
      provider: 'openai',
      model: 'gpt-4o',
      contextWindow: 128_000,
    });
    expect(openai.pricing).toEqual({ input: 2.5, cachedInput: 1.25, output: 10 });
    expect(createModelClient({ ...base, type: 'openai-responses' }).type).toBe('openai-responses');
    expect(
      createModelClient({ ...base, type: 'anthropic', model: 'claude-haiku-4-5' }).pricing?.cacheWrite,
    ).toBe(1.25);
    const local = createModelClient({
      type: 'openai-compatible',
      provider: 'local',
      model: 'qwen3:8b',
      baseURL: 'http://localhost:11434/v1',
    });
    expect(local).toMatchObject({ type: 'openai-compatible', provider: 'local', model: 'qwen3:8b' });
    expect(local.pricing).toBeUndefined();
  });

  it.each([
    [
      { type: 'gemini' },
      'type',
      'createModelClient: type must be one of openai, openai-responses, anthropic, openai-compatible, got "gemini"',
    ],
    [{ model: '' }, 'model', 'createModelClient: model must be a non-empty string, got ""'],
    [
      { provider: undefined },
      'provider',
      'createModelClient: provider must be a non-empty string, got nothing',
    ],
    [{ type: 'openai-compatible' }, 'baseURL', /baseURL is required for type "openai-compatible"/],
    [
      { baseURL: 'localhost:8080' },
      'baseURL',
      'createModelClient: baseURL must be an http(s) URL, got "localhost:8080"',
    ],
    [
      { apiKey: undefined },
      'apiKey',
      'createModelClient: apiKey is required for type "openai" without a baseURL',
    ],
    [
      { apiKey: '' },
      'apiKey',
      'createModelClient: apiKey must be a non-empty string when given, got "[redacted]"',
    ],
    [{ timeoutMs: -5 }, 'timeoutMs', 'createModelClient: timeoutMs must be a positive number, got -5'],
    [
      { pricing: { input: 1 } },
      'pricing.output',
      /pricing.output must be a number >= 0 \(USD per million tokens\), got nothing/,
    ],
    [
      { headers: { 'X-A': 3 } },
      'headers.X-A',
      'createModelClient: headers.X-A must be a string, got "[redacted]"',
    ],
  ])('rejects %j with a ConfigError naming the field', (patch, field, message) => {
    const config = { ...base, ...patch } as ModelClientConfig;
    expect(() => createModelClient(config)).toThrow(message);
    let thrown: unknown;
    try {
      createModelClient(config);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    expect(thrown).toMatchObject({ code: 'configuration', field });
    expect(JSON.stringify({ ...(thrown as object), message: (thrown as Error).message })).not.toContain(
      'sk-config-secret-123',
    );
  });
});
