import type { ContextGuard } from './context-guard.js';
import type { TokenEstimator } from './token-estimator.js';

/** Percent of `window` that `raw` tokens take after the estimator's correction, as the notice says it. */
function percentOf(raw: number, estimator: TokenEstimator, window: number): number {
  return Math.min(100, Math.round((estimator.corrected(raw) / Math.max(1, window)) * 100));
}

/**
 * The conversation's share of the context window, in whole percent, for the XML-NEXT notice.
 * The percent only grows with the tokens, so when the messages counted so far and the upper
 * bound of the whole conversation round to the same percent, that is the exact answer and
 * nothing more is counted; otherwise (or once the tokenizer has counted, `boundsHelp`) the
 * conversation is counted exactly.
 */
export function contextPercent(guard: ContextGuard, estimator: TokenEstimator, window: number): number {
  if (!estimator.boundsHelp) return percentOf(guard.rawConversationTokens, estimator, window);
  const atMost = percentOf(guard.rawConversationBound, estimator, window);
  if (atMost === percentOf(guard.rawConversationFloor, estimator, window)) return atMost;
  return percentOf(guard.rawConversationTokens, estimator, window);
}
