import { expect, test } from 'vitest';
import { createModelClient, type ProviderType } from '../src/index.js';

// The session offers `agent__batch` only to models that cannot make several tool calls in one
// answer: each client says whether its API does.
test.each<[ProviderType, boolean | undefined]>([
  ['openai', true],
  ['openai-responses', true],
  ['anthropic', true],
  ['openai-compatible', undefined],
])('a %s client says parallelToolCalls: %s', (type, expected) => {
  const client = createModelClient({
    type,
    provider: type,
    model: type === 'anthropic' ? 'claude-sonnet-4-5' : 'gpt-4.1-mini',
    apiKey: 'sk-test-secret-key',
    baseURL: 'http://127.0.0.1:9/v1',
  });
  expect(client.parallelToolCalls).toBe(expected);
});
