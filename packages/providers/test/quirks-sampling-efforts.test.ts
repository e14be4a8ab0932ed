// Issue 24, items 2 and 5: sampling parameters and reasoning efforts that OpenAI reasoning models
// refuse (and Anthropic's reading of the new efforts), against the strict server.
import type { ModelRequest } from '@agent/protocol';
import { isModelError } from '@agent/protocol';
import { describe, expect, it } from 'vitest';
import { collectError } from './helpers.js';
import { clientAt, collect, noticesOf, strictServers, type Target } from './strict-targets.js';

const server = strictServers();
const hi = { messages: [{ role: 'user' as const, content: 'hi' }] };
const sampled: ModelRequest = { ...hi, temperature: 0.2, topP: 0.9 };

type Body = Record<string, unknown>;

async function bodyFor(target: Target, request: ModelRequest): Promise<{ body: Body; notices: string[] }> {
  const s = await server();
  s.push({ text: 'ok' });
  const answer = await collect(clientAt(s, target).stream(request));
  expect(s.requests[0]?.rejected).toBeUndefined();
  return { body: s.requests[0]?.body as Body, notices: noticesOf(answer) };
}

const effortOf = (body: Body) => body.reasoning_effort ?? (body.reasoning as Body | undefined)?.effort;

describe('sampling parameters on OpenAI reasoning models (one session temperature, every target)', () => {
  it.each<Target>([
    { type: 'openai', model: 'gpt-5-mini' },
    { type: 'openai', model: 'o3' },
    { type: 'openai-responses', model: 'gpt-5.1' },
    { type: 'openai-responses', model: 'o4-mini' },
    // A proxy in front of a reasoning model, spoken to as an OpenAI-compatible server.
    { type: 'openai-compatible', model: 'openai/gpt-5' },
  ])('$type $model: temperature and top_p are left out, with a notice', async (target) => {
    const { body, notices } = await bodyFor(target, sampled);
    expect(body.temperature).toBeUndefined();
    expect(body.top_p).toBeUndefined();
    expect(notices).toEqual(['temperature and top_p not sent (a reasoning model accepts only the default)']);
  });

  it('other models still get them', async () => {
    const { body, notices } = await bodyFor({ type: 'openai', model: 'gpt-4.1' }, sampled);
    expect(body).toMatchObject({ temperature: 0.2, top_p: 0.9 });
    expect(notices).toEqual([]);
  });

  it('gpt-5.1 at effort none takes a temperature', async () => {
    const { body } = await bodyFor(
      { type: 'openai', model: 'gpt-5.1' },
      { ...sampled, reasoning: { effort: 'none' } },
    );
    expect(body).toMatchObject({ temperature: 0.2, top_p: 0.9, reasoning_effort: 'none' });
  });

  it('omitSampling says "do not send" for any model; [] overrides the table (and the API then refuses)', async () => {
    const { body, notices } = await bodyFor(
      { type: 'openai', model: 'gpt-4.1', config: { omitSampling: ['temperature'] } },
      sampled,
    );
    expect(body.temperature).toBeUndefined();
    expect(body.top_p).toBe(0.9);
    expect(notices).toEqual(['temperature not sent (omitSampling in the config)']);
    const s = await server();
    const forced = clientAt(s, { type: 'openai', model: 'o3', config: { omitSampling: [] } });
    const { error } = await collectError(forced.stream(sampled));
    expect(isModelError(error) && error.kind).toBe('bad_request');
    expect(error.providerMessage).toBe(
      "Unsupported value: 'temperature' does not support 0.2 with this model. Only the default (1) value is supported.",
    );
  });

  it('reasoningModel: true makes any model name a reasoning model', async () => {
    const { body } = await bodyFor(
      { type: 'openai-compatible', model: 'my-deployment', config: { reasoningModel: true } },
      { ...sampled, maxOutputTokens: 100 },
    );
    expect(body.temperature).toBeUndefined();
    expect(body.max_completion_tokens).toBe(100);
  });
});

describe('reasoning efforts per model family', () => {
  it.each<[Target, ModelRequest['reasoning'], string, string | undefined]>([
    // gpt-5.1 and later reject minimal; the nearest (ties go up) is low.
    [
      { type: 'openai', model: 'gpt-5.1' },
      { effort: 'minimal' },
      'low',
      'reasoning effort minimal sent as low: the model accepts none, low, medium, high',
    ],
    [{ type: 'openai-responses', model: 'gpt-5.1' }, { effort: 'minimal' }, 'low', expect.any(String)],
    // A small thinking budget never becomes minimal.
    [{ type: 'openai-responses', model: 'gpt-5.1' }, { budgetTokens: 1024 }, 'low', undefined],
    [{ type: 'openai', model: 'gpt-5-mini' }, { effort: 'none' }, 'minimal', expect.any(String)],
    [{ type: 'openai-responses', model: 'gpt-5.2' }, { effort: 'xhigh' }, 'xhigh', undefined],
    [{ type: 'openai', model: 'o3' }, { effort: 'xhigh' }, 'high', expect.any(String)],
    [{ type: 'openai', model: 'gpt-5.1' }, { effort: 'none' }, 'none', undefined],
    [
      { type: 'openai-compatible', model: 'my-model', config: { reasoningEfforts: ['low', 'high'] } },
      { effort: 'medium' },
      'high',
      expect.any(String),
    ],
  ])('%o %o -> %s', async (target, reasoning, sent, notice) => {
    const { body, notices } = await bodyFor(target, { ...hi, ...(reasoning ? { reasoning } : {}) });
    expect(effortOf(body)).toBe(sent);
    expect(notices).toEqual(notice === undefined ? [] : [notice]);
  });

  it('Anthropic: none is no thinking, xhigh a 32768-token budget', async () => {
    const claude: Target = { type: 'anthropic', model: 'claude-sonnet-4-5' };
    expect((await bodyFor(claude, { ...hi, reasoning: { effort: 'none' } })).body.thinking).toBeUndefined();
    expect((await bodyFor(claude, { ...hi, reasoning: { effort: 'xhigh' } })).body).toMatchObject({
      thinking: { type: 'enabled', budget_tokens: 32768 },
      max_tokens: 32768 + 4096,
    });
  });
});
