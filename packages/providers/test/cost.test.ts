// Cost rules: reported cost wins; else configured prices; else list prices; else absent.
import { type ModelServer, startModelServer } from '@agent/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeCostUsd, DEFAULT_PRICING, DEFAULT_PRICING_DATE, lookupPricing } from '../src/index.js';
import { reportedCost } from '../src/usage-cost.js';
import { clientFor, collect } from './helpers.js';

describe('lookupPricing', () => {
  it('finds a model, its dated snapshots and -latest alias', () => {
    expect(lookupPricing('openai', 'gpt-4o-mini')).toBe(DEFAULT_PRICING.openai['gpt-4o-mini']);
    expect(lookupPricing('openai-responses', 'gpt-4o-mini-2024-07-18')).toBe(
      DEFAULT_PRICING.openai['gpt-4o-mini'],
    );
    expect(lookupPricing('anthropic', 'claude-sonnet-4-5-20250929')).toBe(
      DEFAULT_PRICING.anthropic['claude-sonnet-4-5'],
    );
    expect(lookupPricing('anthropic', 'claude-3-7-sonnet-latest')).toBe(
      DEFAULT_PRICING.anthropic['claude-3-7-sonnet'],
    );
  });

  it('does not guess: other variants, unknown models and OpenAI-compatible servers have no price', () => {
    expect(lookupPricing('openai', 'gpt-4o-audio-preview')).toBeUndefined();
    expect(lookupPricing('anthropic', 'claude-unknown')).toBeUndefined();
    expect(lookupPricing('openai-compatible', 'gpt-4o')).toBeUndefined();
  });

  it('prefers the configured price', () => {
    const mine = { input: 1, output: 2 };
    expect(lookupPricing('openai', 'gpt-4o', mine)).toBe(mine);
    expect(lookupPricing('openai-compatible', 'llama3', mine)).toBe(mine);
  });

  it('says when its list prices were taken', () => {
    expect(DEFAULT_PRICING_DATE).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });
});

describe('computeCostUsd', () => {
  it('prices uncached input, cache reads, cache writes and output at their own rates', () => {
    // 10k input of which 6k read from cache and 2k written: 2k x $3 + 6k x $0.30 + 2k x $3.75 + 1k x $15.
    const usage = {
      inputTokens: 10_000,
      cachedTokens: 6_000,
      cacheWriteTokens: 2_000,
      outputTokens: 1_000,
      totalTokens: 11_000,
    };
    expect(computeCostUsd(usage, { input: 3, cachedInput: 0.3, cacheWrite: 3.75, output: 15 })).toBe(0.0303);
  });

  it('falls back to the input price for cache rates that are not given', () => {
    const usage = { inputTokens: 1_000_000, cachedTokens: 500_000, outputTokens: 0, totalTokens: 1_000_000 };
    expect(computeCostUsd(usage, { input: 2, output: 8 })).toBe(2);
  });
});

describe('reportedCost', () => {
  it('reads OpenRouter cost and upstream cost, and xAI ticks', () => {
    expect(reportedCost({ cost: 0.0042, cost_details: { upstream_inference_cost: 0.004 } })).toEqual({
      costUsd: 0.0042,
      upstreamInferenceCostUsd: 0.004,
    });
    expect(reportedCost({ cost_in_usd_ticks: 25_000_000 })).toEqual({ costUsd: 0.0025 });
    expect(reportedCost({ prompt_tokens: 3 })).toEqual({});
  });
});

describe('cost on the usage event, over HTTP', () => {
  let server: ModelServer;
  beforeAll(async () => {
    server = await startModelServer({ strict: true });
  });
  afterAll(() => server.close());
  const request = { messages: [{ role: 'user' as const, content: 'hi' }] };
  const usage = { inputTokens: 1000, outputTokens: 500, totalTokens: 1500 };

  it('a cost the provider reports wins over list prices (OpenRouter usage.cost)', async () => {
    server.push({ text: 'ok', usage: { ...usage, costUsd: 0.0123 } });
    const { usage: got } = await collect(clientFor(server, 'openai', { model: 'gpt-4o' }).stream(request));
    expect(got?.costUsd).toBe(0.0123);
  });

  it('list price for a known model: gpt-4o 1000 x $2.50 + 500 x $10 per million', async () => {
    server.push({ text: 'ok', usage });
    const { usage: got } = await collect(clientFor(server, 'openai', { model: 'gpt-4o' }).stream(request));
    expect(got?.costUsd).toBe(0.0075);
  });

  it('unknown price: cost absent, not zero; configured price: computed', async () => {
    server.push({ text: 'ok', usage }, { text: 'ok', usage });
    const unknown = await collect(
      clientFor(server, 'openai-compatible', { model: 'llama3' }).stream(request),
    );
    expect(unknown.usage).toBeDefined();
    expect(unknown.usage && 'costUsd' in unknown.usage).toBe(false);
    const priced = await collect(
      clientFor(server, 'openai-compatible', {
        model: 'llama3',
        pricing: { input: 0.2, output: 0.6 },
      }).stream(request),
    );
    expect(priced.usage?.costUsd).toBe(0.0005);
  });
});
