import type { AccountingEntry } from './accounting.js';
import type { CompactionRun } from './compaction.js';
import type { GuardrailRun, ToolPolicyVerdict } from './guardrail-run.js';

/**
 * `guardrail`: one guardrail run, under the turn it ran in (input guardrails: turn 1).
 * `compaction`: one compaction, under the session (between two turns), its summary calls as `llm` nodes below it.
 */
export type OpKind = 'session' | 'turn' | 'llm' | 'tool' | 'guardrail' | 'compaction';

export interface OpTotals {
  llmCalls: number;
  toolCalls: number;
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
  costUsd: number;
  /** Milliseconds from start to end (or to now while running). */
  durationMs: number;
}

/** One operation of a session: the session itself, a turn, an LLM attempt or a tool call. */
export interface OpNode {
  id: string;
  kind: OpKind;
  /** Session: agent name; turn: `turn N`; llm: `provider:model`; tool: tool name. */
  label: string;
  startedAt: number;
  endedAt?: number;
  status: 'running' | 'ok' | 'failed';
  error?: string;
  accounting?: AccountingEntry;
  /** Tool nodes: the structured content the tool answered (a sub-agent's JSON report, seed 004's `structured_output`). */
  structuredOutput?: unknown;
  /** Answered from a cache: a session replayed from the response cache, a tool call from the tool cache. */
  cached?: true;
  /** Tool nodes: the id of the tool call in the conversation (where its arguments and result are). */
  toolCallId?: string;
  /** Guardrail nodes: the run and its outcome (a model-judged guardrail's session hangs below). */
  guardrail?: GuardrailRun;
  /** Tool nodes: what the tool policy decided for the call, and the rule that matched. */
  policy?: ToolPolicyVerdict;
  /** Compaction nodes: the compaction and its outcome. */
  compaction?: CompactionRun;
  /** Sub-agent sessions hang under the tool node that ran them. */
  children: OpNode[];
}

/** The root of the tree, with totals over everything below it (sub-agents included). */
export interface SessionNode extends OpNode {
  kind: 'session';
  sessionId: string;
  totals: OpTotals;
}

/** Totals of nothing yet: every count and cost 0 (`durationMs` when already known). */
export function emptyTotals(durationMs = 0): OpTotals {
  return {
    llmCalls: 0,
    toolCalls: 0,
    inputTokens: 0,
    outputTokens: 0,
    cachedTokens: 0,
    costUsd: 0,
    durationMs,
  };
}
