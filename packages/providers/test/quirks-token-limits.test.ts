// Issue 24, item 9: the max-tokens field of OpenAI-compatible servers, Anthropic's output limit
// (thinking budget + answer), and the 1M-context beta with its long-context prices.
import { describe, expect, it } from 'vitest';
import { clientAt, collect, noticesOf, strictServers, type Target } from './strict-targets.js';

const server = strictServers();
const hi = { messages: [{ role: 'user' as const, content: 'hi' }] };
type Json = Record<string, unknown>;

async function sent(target: Target, request: Parameters<ReturnType<typeof clientAt>['stream']>[0]) {
  const s = await server();
  s.push({ text: 'ok', usage: { inputTokens: 300_000, outputTokens: 1_000 } });
  const answer = await collect(clientAt(s, target).stream(request));
  expect(s.requests[0]?.rejected).toBeUndefined();
  return { body: s.requests[0]?.body as Json, headers: s.requests[0]?.headers ?? {}, answer };
}

describe('the max-tokens field of OpenAI-compatible servers', () => {
  it('is max_completion_tokens for a reasoning model behind a proxy (max_tokens is refused)', async () => {
    const { body } = await sent(
      { type: 'openai-compatible', model: 'gpt-5-mini' },
      { ...hi, maxOutputTokens: 500 },
    );
    expect(body.max_completion_tokens).toBe(500);
    expect(body).not.toHaveProperty('max_tokens');
  });

  it('is configurable (an Azure deployment name says nothing about the model)', async () => {
    const target: Target = {
      type: 'openai-compatible',
      model: 'my-deployment',
      config: { maxTokensField: 'max_completion_tokens' },
    };
    expect((await sent(target, { ...hi, maxOutputTokens: 500 })).body.max_completion_tokens).toBe(500);
    const plain = await sent(
      { type: 'openai-compatible', model: 'qwen3:8b' },
      { ...hi, maxOutputTokens: 500 },
    );
    expect(plain.body.max_tokens).toBe(500);
  });
});

describe("Anthropic's output limit", () => {
  it('caps max_tokens (budget + answer) and keeps room for the answer', async () => {
    const { body, answer } = await sent(
      { type: 'anthropic', model: 'claude-sonnet-4-5' },
      { ...hi, reasoning: { budgetTokens: 70_000 } },
    );
    expect(body.max_tokens).toBe(64_000);
    expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: 64_000 - 4096 });
    expect(noticesOf(answer)).toEqual([
      "max_tokens 74096 capped at 64000, the model's output limit",
      'thinking budget lowered to 59904 to leave room for the answer',
    ]);
  });

  it('caps a plain max_tokens too, and outputTokenLimit overrides the table', async () => {
    const haiku = await sent(
      { type: 'anthropic', model: 'claude-3-5-haiku-20241022' },
      { ...hi, maxOutputTokens: 10_000 },
    );
    expect(haiku.body.max_tokens).toBe(8192);
    const own = await sent(
      { type: 'anthropic', model: 'claude-sonnet-4-5', config: { outputTokenLimit: 2000 } },
      { ...hi, maxOutputTokens: 10_000 },
    );
    expect(own.body.max_tokens).toBe(2000);
  });
});

describe('the 1M-context beta', () => {
  it('sends the beta header and prices a call above 200k input at the long-context rates', async () => {
    const target: Target = { type: 'anthropic', model: 'claude-sonnet-4-5', config: { longContext: true } };
    const { headers, answer } = await sent(target, hi);
    expect(headers['anthropic-beta']).toBe('context-1m-2025-08-07');
    // 300k input at $6 and 1k output at $22.50 per million (not $3 / $15).
    expect(answer.usage?.costUsd).toBeCloseTo((300_000 * 6 + 1_000 * 22.5) / 1e6, 10);
  });

  it('keeps betas the config already sends', async () => {
    const target: Target = {
      type: 'anthropic',
      model: 'claude-sonnet-4-5',
      config: { longContext: true, headers: { 'anthropic-beta': 'interleaved-thinking-2025-05-14' } },
    };
    const { headers } = await sent(target, hi);
    expect(headers['anthropic-beta']).toBe('interleaved-thinking-2025-05-14,context-1m-2025-08-07');
  });
});
