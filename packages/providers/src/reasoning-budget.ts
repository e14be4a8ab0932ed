import { REASONING_EFFORTS, type ReasoningEffort, type ReasoningOptions } from '@agent/protocol';

/** Thinking budgets used when only an effort is given (Anthropic); `none` is no thinking. */
export const BUDGET_FOR_EFFORT: Readonly<Record<Exclude<ReasoningEffort, 'none'>, number>> = {
  minimal: 1024,
  low: 2048,
  medium: 8192,
  high: 16384,
  xhigh: 32768,
};

/**
 * The effort for a request: the given one, else one derived from a thinking budget (OpenAI
 * APIs). A budget never derives `minimal`: gpt-5.1 and later reject it, and a small budget
 * means `low` to every model.
 */
export function effortOf(reasoning: ReasoningOptions | undefined): ReasoningEffort | undefined {
  if (!reasoning) return undefined;
  if (reasoning.effort !== undefined) return reasoning.effort;
  const budget = reasoning.budgetTokens;
  if (budget === undefined) return undefined;
  if (budget <= 0) return 'none';
  if (budget <= BUDGET_FOR_EFFORT.low) return 'low';
  if (budget <= BUDGET_FOR_EFFORT.medium) return 'medium';
  if (budget <= BUDGET_FOR_EFFORT.high) return 'high';
  return 'xhigh';
}

/** The thinking budget for a request: the given one, else one derived from the effort; undefined for none. */
export function budgetOf(reasoning: ReasoningOptions | undefined): number | undefined {
  if (!reasoning) return undefined;
  if (reasoning.budgetTokens !== undefined)
    return reasoning.budgetTokens > 0 ? reasoning.budgetTokens : undefined;
  if (reasoning.effort === undefined || reasoning.effort === 'none') return undefined;
  return BUDGET_FOR_EFFORT[reasoning.effort];
}

/**
 * The accepted effort nearest to the asked one (ties go to the higher effort, so a model that
 * cannot do `minimal` thinks a little more rather than not at all).
 */
export function nearestEffort(
  effort: ReasoningEffort,
  accepted: readonly ReasoningEffort[] | undefined,
): ReasoningEffort {
  if (accepted === undefined || accepted.length === 0 || accepted.includes(effort)) return effort;
  const rank = REASONING_EFFORTS.indexOf(effort);
  let best = accepted[0] as ReasoningEffort;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of accepted) {
    const distance = Math.abs(REASONING_EFFORTS.indexOf(candidate) - rank);
    const higher = REASONING_EFFORTS.indexOf(candidate) > REASONING_EFFORTS.indexOf(best);
    if (distance < bestDistance || (distance === bestDistance && higher)) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}
