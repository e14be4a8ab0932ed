import type { ModelPricing, ProviderType } from './config.js';

/**
 * List prices in USD per million tokens, standard tier, as published by OpenAI and Anthropic
 * on 2025-11-20. They are a convenience, not a bill: batch, priority and regional prices
 * differ, and prices change. Override them with `ModelClientConfig.pricing`. Anthropic
 * `cacheWrite` is the 5-minute cache write price; `longContext` is the price of a call above
 * 200k input tokens, which only the 1M-context beta (`longContext: true`) allows.
 */
export const DEFAULT_PRICING_DATE = '2025-11-20';

/** Claude Sonnet 4 and 4.5 above 200k input tokens (1M-context beta): 2x input, 1.5x output. */
const SONNET_1M = { thresholdTokens: 200_000, input: 6, cachedInput: 0.6, cacheWrite: 7.5, output: 22.5 };

export const DEFAULT_PRICING: Readonly<
  Record<'openai' | 'anthropic', Readonly<Record<string, ModelPricing>>>
> = {
  openai: {
    'gpt-5.1': { input: 1.25, cachedInput: 0.125, output: 10 },
    'gpt-5': { input: 1.25, cachedInput: 0.125, output: 10 },
    'gpt-5-mini': { input: 0.25, cachedInput: 0.025, output: 2 },
    'gpt-5-nano': { input: 0.05, cachedInput: 0.005, output: 0.4 },
    'gpt-4.1': { input: 2, cachedInput: 0.5, output: 8 },
    'gpt-4.1-mini': { input: 0.4, cachedInput: 0.1, output: 1.6 },
    'gpt-4.1-nano': { input: 0.1, cachedInput: 0.025, output: 0.4 },
    'gpt-4o': { input: 2.5, cachedInput: 1.25, output: 10 },
    'gpt-4o-mini': { input: 0.15, cachedInput: 0.075, output: 0.6 },
    o3: { input: 2, cachedInput: 0.5, output: 8 },
    'o4-mini': { input: 1.1, cachedInput: 0.275, output: 4.4 },
    'o3-mini': { input: 1.1, cachedInput: 0.55, output: 4.4 },
    o1: { input: 15, cachedInput: 7.5, output: 60 },
  },
  anthropic: {
    'claude-opus-4-5': { input: 5, cachedInput: 0.5, cacheWrite: 6.25, output: 25 },
    'claude-opus-4-1': { input: 15, cachedInput: 1.5, cacheWrite: 18.75, output: 75 },
    'claude-opus-4': { input: 15, cachedInput: 1.5, cacheWrite: 18.75, output: 75 },
    'claude-sonnet-4-5': { input: 3, cachedInput: 0.3, cacheWrite: 3.75, output: 15, longContext: SONNET_1M },
    'claude-sonnet-4': { input: 3, cachedInput: 0.3, cacheWrite: 3.75, output: 15, longContext: SONNET_1M },
    'claude-3-7-sonnet': { input: 3, cachedInput: 0.3, cacheWrite: 3.75, output: 15 },
    'claude-haiku-4-5': { input: 1, cachedInput: 0.1, cacheWrite: 1.25, output: 5 },
    'claude-3-5-haiku': { input: 0.8, cachedInput: 0.08, cacheWrite: 1, output: 4 },
    'claude-3-haiku': { input: 0.25, cachedInput: 0.03, cacheWrite: 0.3, output: 1.25 },
  },
};

/** Dated snapshots and aliases of a listed model: `-2025-04-14`, `-20250929`, `-latest`. */
const SNAPSHOT_SUFFIX = /^-(\d{4}-\d{2}-\d{2}|\d{8}|latest)$/;

function tableFor(type: ProviderType): Readonly<Record<string, ModelPricing>> | undefined {
  if (type === 'openai' || type === 'openai-responses') return DEFAULT_PRICING.openai;
  if (type === 'anthropic') return DEFAULT_PRICING.anthropic;
  return undefined; // openai-compatible servers: no price unless configured
}

/**
 * The price for a model: the configured one, else the list price for the model or its dated
 * snapshot, else undefined (cost unknown, never zero).
 */
export function lookupPricing(
  type: ProviderType,
  model: string,
  configured?: ModelPricing,
): ModelPricing | undefined {
  if (configured) return configured;
  const table = tableFor(type);
  if (!table) return undefined;
  const exact = table[model];
  if (exact) return exact;
  for (const [name, pricing] of Object.entries(table)) {
    if (model.startsWith(name) && SNAPSHOT_SUFFIX.test(model.slice(name.length))) return pricing;
  }
  return undefined;
}
