import { describe, expect, it } from 'vitest';
import { createModelClient, type ModelClientConfig, ProviderConfigError } from '../src/index.js';

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
      /`type` must be one of openai, openai-responses, anthropic, openai-compatible; got "gemini"/,
    ],
    [{ model: '' }, /`model` must be a non-empty string; got ""/],
    [{ provider: undefined }, /`provider` must be a non-empty string; got undefined/],
    [{ type: 'openai-compatible' }, /`baseURL` is required for type "openai-compatible"/],
    [{ baseURL: 'localhost:8080' }, /`baseURL` must be an http\(s\) URL; got "localhost:8080"/],
    [{ apiKey: undefined }, /`apiKey` is required for type "openai" without a `baseURL`/],
    [{ timeoutMs: -5 }, /`timeoutMs` must be a positive number; got number/],
    [
      { pricing: { input: 1 } },
      /`pricing.output` must be a number >= 0 \(USD per million tokens\); got undefined/,
    ],
    [{ headers: { 'X-A': 3 } }, /header "X-A" must be a string; got number/],
  ])('rejects %j', (patch, message) => {
    const config = { ...base, ...patch } as ModelClientConfig;
    expect(() => createModelClient(config)).toThrow(ProviderConfigError);
    expect(() => createModelClient(config)).toThrow(message);
    try {
      createModelClient(config);
    } catch (error) {
      expect((error as Error).message).not.toContain('sk-config-secret-123');
    }
  });
});
