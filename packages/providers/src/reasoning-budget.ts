import type { ReasoningEffort, ReasoningOptions } from '@agent/protocol';

/** Thinking budgets used when only an effort is given (Anthropic). */
export const BUDGET_FOR_EFFORT: Readonly<Record<ReasoningEffort, number>> = {
  minimal: 1024,
  low: 2048,
  medium: 8192,
  high: 16384,
};

/** The effort for a request: the given one, else one derived from a thinking budget (OpenAI APIs). */
export function effortOf(reasoning: ReasoningOptions | undefined): ReasoningEffort | undefined {
  if (!reasoning) return undefined;
  if (reasoning.effort !== undefined) return reasoning.effort;
  const budget = reasoning.budgetTokens;
  if (budget === undefined) return undefined;
  if (budget <= BUDGET_FOR_EFFORT.minimal) return 'minimal';
  if (budget <= BUDGET_FOR_EFFORT.low) return 'low';
  if (budget <= BUDGET_FOR_EFFORT.medium) return 'medium';
  return 'high';
}

/** The thinking budget for a request: the given one, else one derived from the effort. */
export function budgetOf(reasoning: ReasoningOptions | undefined): number | undefined {
  if (!reasoning) return undefined;
  if (reasoning.budgetTokens !== undefined) return reasoning.budgetTokens;
  return reasoning.effort === undefined ? undefined : BUDGET_FOR_EFFORT[reasoning.effort];
}
