import type { AgentResult } from '@agent/protocol';

/** What budgets and the results file count of one session. */
export interface RunMetrics {
  /** Undefined when no model call of the run has a known price. */
  costUsd?: number;
  inputTokens: number;
  outputTokens: number;
  /** Turns of the top session (sub-agents' turns are theirs). */
  turns: number;
  durationMs: number;
}

/** The run's totals from its op tree (sub-agents included) and its accounting. */
export function runMetrics(result: AgentResult, wallMs = 0): RunMetrics {
  const totals = result.opTree?.totals;
  const priced = result.accounting.some((entry) => entry.type === 'llm' && entry.costUsd !== undefined);
  return {
    ...(priced && totals !== undefined ? { costUsd: totals.costUsd } : {}),
    inputTokens: totals?.inputTokens ?? 0,
    outputTokens: totals?.outputTokens ?? 0,
    turns: result.opTree?.children.filter((child) => child.kind === 'turn').length ?? 0,
    durationMs: totals?.durationMs ?? wallMs,
  };
}

/** A sum of costs where any known one makes the total known. */
export function addCost(total: number | undefined, cost: number | undefined): number | undefined {
  if (cost === undefined) return total;
  return (total ?? 0) + cost;
}
