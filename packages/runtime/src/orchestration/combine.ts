import { type AgentResult, emptyTotals, type OpTotals, type SessionNode } from '@agent/protocol';
import { mergeByTime } from '../runner/run-scope.js';

function sumTotals(trees: readonly SessionNode[], durationMs: number): OpTotals {
  const totals: OpTotals = emptyTotals(durationMs);
  for (const tree of trees) {
    totals.llmCalls += tree.totals.llmCalls;
    totals.toolCalls += tree.totals.toolCalls;
    totals.inputTokens += tree.totals.inputTokens;
    totals.outputTokens += tree.totals.outputTokens;
    totals.cachedTokens += tree.totals.cachedTokens;
    totals.costUsd += tree.totals.costUsd;
  }
  return totals;
}

/** The op tree of a chain: one node for the agent, its stages' sessions below it in the order they ran. */
export function chainTree(options: {
  label: string;
  sessionId: string;
  startedAt: number;
  endedAt: number;
  stages: readonly SessionNode[];
  outcome: { ok: true } | { ok: false; error: string };
}): SessionNode {
  const { label, sessionId, startedAt, endedAt, stages, outcome } = options;
  return {
    id: 'op-0',
    kind: 'session',
    label,
    sessionId,
    startedAt,
    endedAt,
    status: outcome.ok ? 'ok' : 'failed',
    ...(outcome.ok ? {} : { error: outcome.error }),
    children: [...stages],
    totals: sumTotals(stages, endedAt - startedAt),
  };
}

/**
 * The result of a chain: the last stage's ending and report, the logs and accounting of every
 * stage of the chain in time order (advisors' reach the run through the scope, like
 * sub-agents'), the chain's op tree and who answered.
 */
export function chainResult(
  last: AgentResult,
  stages: readonly AgentResult[],
  extra: { sessionId: string; opTree: SessionNode; finalAgentId: string; error?: string },
): AgentResult {
  let logs = stages[0]?.logs ?? [];
  let accounting = stages[0]?.accounting ?? [];
  for (const stage of stages.slice(1)) {
    logs = mergeByTime(logs, stage.logs);
    accounting = mergeByTime(accounting, stage.accounting);
  }
  const common = {
    conversation: last.conversation,
    logs,
    accounting,
    opTree: extra.opTree,
    sessionId: extra.sessionId,
    finalAgentId: extra.finalAgentId,
  };
  if (last.success) return { ...last, ...common };
  return { ...last, ...common, error: extra.error ?? last.error };
}
