import type { TokenUsage } from '@agent/protocol';
import type { ModelPricing } from './config.js';

const PER_MILLION = 1_000_000;

/** Rounds away float noise (1e-10 USD is far below any bill). */
function roundUsd(value: number): number {
  return Math.round(value * 1e10) / 1e10;
}

/**
 * Cost in USD of one call's usage at the given prices. Cached and cache-write tokens are part of
 * `inputTokens` and are priced at their own rates (falling back to the input price). A call
 * whose input passes the long-context threshold is priced wholly at the long-context prices.
 */
export function computeCostUsd(usage: TokenUsage, base: ModelPricing): number {
  const tier = base.longContext;
  const pricing = tier !== undefined && usage.inputTokens > tier.thresholdTokens ? tier : base;
  const cached = usage.cachedTokens ?? 0;
  const written = usage.cacheWriteTokens ?? 0;
  const fresh = Math.max(0, usage.inputTokens - cached - written);
  const total =
    fresh * pricing.input +
    cached * (pricing.cachedInput ?? pricing.input) +
    written * (pricing.cacheWrite ?? pricing.input) +
    usage.outputTokens * pricing.output;
  return roundUsd(total / PER_MILLION);
}

/** Sets `costUsd` from the prices unless the provider reported a cost itself (reported cost wins). */
export function applyPricing(usage: TokenUsage, pricing: ModelPricing | undefined): TokenUsage {
  if (usage.costUsd === undefined && pricing !== undefined) usage.costUsd = computeCostUsd(usage, pricing);
  return usage;
}

function finiteNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** xAI reports cost in ticks of 1e-10 USD. */
const USD_PER_XAI_TICK = 1e-10;

/**
 * Cost a provider reported in its usage object: OpenRouter `cost` and
 * `cost_details.upstream_inference_cost` (USD), xAI `cost_in_usd_ticks`.
 */
export function reportedCost(
  usage: Record<string, unknown>,
): Pick<TokenUsage, 'costUsd' | 'upstreamInferenceCostUsd'> {
  const out: Pick<TokenUsage, 'costUsd' | 'upstreamInferenceCostUsd'> = {};
  const cost = finiteNumber(usage.cost);
  const ticks = finiteNumber(usage.cost_in_usd_ticks);
  if (cost !== undefined) out.costUsd = cost;
  else if (ticks !== undefined) out.costUsd = roundUsd(ticks * USD_PER_XAI_TICK);
  const details = usage.cost_details as Record<string, unknown> | null | undefined;
  const upstream = finiteNumber(details?.upstream_inference_cost);
  if (upstream !== undefined) out.upstreamInferenceCostUsd = upstream;
  return out;
}
