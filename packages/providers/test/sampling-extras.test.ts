// Seed 002's `topK` and `repeatPenalty`: what each provider type puts in the HTTP body the
// official SDK sends (read back by the testkit server), and the notice when it sends nothing.
import { ConfigError, type ModelRequest } from '@agent/protocol';
import { describe, expect, it } from 'vitest';
import { resolveRequestRules, validateConfig } from '../src/index.js';
import { clientAt, collect, noticesOf, strictServers, type Target } from './strict-targets.js';

const server = strictServers();
const request: ModelRequest = {
  messages: [{ role: 'user', content: 'hi' }],
  temperature: 0.7,
  topK: 40,
  repeatPenalty: 1.1,
};

type Body = Record<string, unknown>;

async function bodyFor(target: Target, req: ModelRequest = request) {
  const s = await server();
  s.push({ text: 'ok' });
  const answer = await collect(clientAt(s, target).stream(req));
  expect(s.requests[0]?.rejected).toBeUndefined();
  return { body: s.requests[0]?.body as Body, notices: noticesOf(answer), decoded: s.requests[0]?.options };
}

describe('topK and repeatPenalty on the wire', () => {
  it('openai-compatible: top_k and repetition_penalty as extra body fields', async () => {
    const { body, notices, decoded } = await bodyFor({ type: 'openai-compatible', model: 'Qwen/Qwen3-8B' });
    expect(body).toMatchObject({ temperature: 0.7, top_k: 40, repetition_penalty: 1.1 });
    expect(body.repeat_penalty).toBeUndefined();
    expect(notices).toEqual([]);
    expect(decoded).toMatchObject({ topK: 40, repeatPenalty: 1.1 });
  });

  it('openai-compatible with repeatPenaltyField repeat_penalty (llama.cpp, LM Studio)', async () => {
    const { body } = await bodyFor({
      type: 'openai-compatible',
      model: 'local',
      config: { repeatPenaltyField: 'repeat_penalty' },
    });
    expect(body).toMatchObject({ top_k: 40, repeat_penalty: 1.1 });
    expect(body.repetition_penalty).toBeUndefined();
  });

  it('omitSampling keeps them out, and says so', async () => {
    const { body, notices } = await bodyFor({
      type: 'openai-compatible',
      model: 'local',
      config: { omitSampling: ['topK', 'repeatPenalty'] },
    });
    expect(body.top_k).toBeUndefined();
    expect(body.repetition_penalty).toBeUndefined();
    expect(body.temperature).toBe(0.7);
    expect(notices).toEqual(['top_k and repeat penalty not sent (omitSampling in the config)']);
  });

  it('anthropic: top_k, and a notice that it has no repeat penalty', async () => {
    const { body, notices } = await bodyFor({ type: 'anthropic', model: 'claude-sonnet-4-5' });
    expect(body).toMatchObject({ temperature: 0.7, top_k: 40 });
    expect(body.repetition_penalty).toBeUndefined();
    expect(notices).toEqual(['repeat penalty not sent (this provider type has no such parameter)']);
  });

  it('anthropic with thinking on: no top_k (Anthropic refuses it), with a notice', async () => {
    const { body, notices } = await bodyFor(
      { type: 'anthropic', model: 'claude-sonnet-4-5' },
      { ...request, reasoning: { budgetTokens: 2048 }, maxOutputTokens: 8000 },
    );
    expect(body.thinking).toMatchObject({ type: 'enabled' });
    expect(body.top_k).toBeUndefined();
    expect(notices).toContain('top_k not sent (Anthropic does not take it with thinking on)');
  });

  it.each<Target>([
    { type: 'openai', model: 'gpt-4.1-mini' },
    { type: 'openai-responses', model: 'gpt-4.1-mini' },
  ])('$type: neither is sent (OpenAI refuses unknown fields), with a notice', async (target) => {
    const { body, notices } = await bodyFor(target);
    expect(body.temperature).toBe(0.7);
    for (const field of ['top_k', 'repetition_penalty', 'repeat_penalty'])
      expect(body[field]).toBeUndefined();
    expect(notices).toEqual(['top_k and repeat penalty not sent (this provider type has no such parameter)']);
  });
});

describe('the rules and the config', () => {
  it('api.mistral.ai gets neither by default (it answers 422 extra_forbidden), unless configured', () => {
    const base = {
      type: 'openai-compatible' as const,
      provider: 'mistral',
      model: 'mistral-large-latest',
      baseURL: 'https://api.mistral.ai/v1',
      apiKey: 'k',
    };
    expect(resolveRequestRules(base)).toMatchObject({ topK: false });
    expect(resolveRequestRules(base).repeatPenaltyField).toBeUndefined();
    expect(
      resolveRequestRules({ ...base, repeatPenaltyField: 'repetition_penalty' }).repeatPenaltyField,
    ).toBe('repetition_penalty');
  });

  it('refuses a repeatPenaltyField that is not a field name, or on a type without a repeat penalty', () => {
    const compatible = {
      type: 'openai-compatible' as const,
      provider: 'local',
      model: 'm',
      baseURL: 'http://localhost:8080/v1',
    };
    expect(() => validateConfig({ ...compatible, repeatPenaltyField: 'penalty' as never })).toThrow(
      /repeatPenaltyField must be one of repetition_penalty, repeat_penalty, got "penalty"/,
    );
    expect(() =>
      validateConfig({
        type: 'anthropic',
        provider: 'anthropic',
        model: 'claude-sonnet-4-5',
        apiKey: 'k',
        repeatPenaltyField: 'repeat_penalty',
      }),
    ).toThrow(ConfigError);
    expect(() => validateConfig({ ...compatible, omitSampling: ['topK', 'repeatPenalty'] })).not.toThrow();
    expect(() => validateConfig({ ...compatible, omitSampling: ['top_k' as never] })).toThrow(
      /omitSampling\[\] must be one of temperature, topP, topK, repeatPenalty/,
    );
  });
});
