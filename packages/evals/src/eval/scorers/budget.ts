import type { Budgets, Scorer } from '../../types.js';
import { runMetrics } from '../run-metrics.js';
import { onlyKeys, optionalNumber, type SpecFields, verdict } from './spec-fields.js';

export const BUDGET_KEYS = ['costUsd', 'tokens', 'turns', 'latencyMs'] as const;

/** Reads a budgets object (a spec's, a dataset's, a case's); throws a SpecProblem. */
export function readBudgets(spec: SpecFields): Budgets {
  const budgets: Budgets = {};
  for (const key of BUDGET_KEYS) {
    const value = optionalNumber(spec, key, 0);
    if (value !== undefined) budgets[key] = value;
  }
  return budgets;
}

/** `budget`: the run stayed within its cost, tokens, turns and latency (each optional). */
export function budgetScorer(spec: SpecFields): Scorer {
  onlyKeys(spec, BUDGET_KEYS);
  const budgets = readBudgets(spec);
  return {
    name: 'budget',
    score({ result }) {
      const metrics = runMetrics(result);
      const over: string[] = [];
      if (budgets.costUsd !== undefined) {
        if (metrics.costUsd === undefined)
          over.push('cost unknown (no price for the model: set pricing in agent.json)');
        else if (metrics.costUsd > budgets.costUsd)
          over.push(`cost $${metrics.costUsd.toFixed(6)} > $${budgets.costUsd}`);
      }
      const tokens = metrics.inputTokens + metrics.outputTokens;
      if (budgets.tokens !== undefined && tokens > budgets.tokens)
        over.push(`tokens ${tokens} > ${budgets.tokens}`);
      if (budgets.turns !== undefined && metrics.turns > budgets.turns)
        over.push(`turns ${metrics.turns} > ${budgets.turns}`);
      if (budgets.latencyMs !== undefined && metrics.durationMs > budgets.latencyMs)
        over.push(`latency ${metrics.durationMs}ms > ${budgets.latencyMs}ms`);
      return over.length === 0 ? verdict(true) : verdict(false, `over budget: ${over.join('; ')}`);
    },
  };
}
