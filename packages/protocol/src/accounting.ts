import type { GuardrailOutcome, GuardrailPhase, GuardrailStage } from './guardrail-run.js';

interface AccountingBase {
  /** Epoch milliseconds when the operation completed. */
  timestamp: number;
  status: 'ok' | 'failed';
  /** End-to-end latency in milliseconds. */
  latency: number;
  /** Present only when `status` is `failed`. */
  error?: string;
  turn?: number;
  agentPath?: string;
  /** Answered from a cache (the runtime's response or tool cache): nothing was called, cost 0. */
  cached?: true;
  /**
   * Replayed from the turn journal by a resumed session (`docs/sessions.md`, "Exactly once
   * across a crash"): the call happened once, in the process that crashed; this entry records
   * it again (that process's accounting was lost with it), nothing was called now.
   */
  replayed?: true;
}

export interface LlmAccountingEntry extends AccountingBase {
  type: 'llm';
  /** Configured provider key. */
  provider: string;
  /** Configured model name. */
  model: string;
  /** For routed providers (OpenRouter): who actually answered. */
  actualProvider?: string;
  actualModel?: string;
  /** Cost in USD: the provider's reported figure, else from the pricing table; absent when unknown. */
  costUsd?: number;
  upstreamInferenceCostUsd?: number;
  tokens: {
    inputTokens: number;
    outputTokens: number;
    cachedTokens?: number;
    cacheWriteTokens?: number;
    reasoningTokens?: number;
    totalTokens: number;
  };
  stopReason?: string;
  attempt?: number;
  /**
   * What the call was for when it was not a turn of the session: `compaction`, a summary of older
   * turns (docs/compaction.md). Absent for the session's own turns.
   */
  purpose?: 'compaction';
}

export interface ToolAccountingEntry extends AccountingBase {
  type: 'tool';
  /** The model's tool-call id (matches the call's `tool_started` / `tool_finished` events). */
  callId?: string;
  /** MCP server id; `agent` for internal tools; `unknown` when resolution failed. */
  mcpServer: string;
  /** Tool name (`agent__*` for internal tools). */
  command: string;
  /** Length of the JSON-serialised arguments. */
  charactersIn: number;
  /** Length of the text returned to the model (after handle replacement). */
  charactersOut: number;
  /** `xml` when the call came through the XML final slot. */
  source?: 'native' | 'xml';
  /**
   * Set on the entry of the session's committed report (`agent__final_report`,
   * `agent__final_report_xml` per seed 003, `report_back`): the report is the answer, not a tool
   * call, so no tool-call count includes it (`isToolCallEntry`).
   */
  report?: true;
  details?: Record<string, string | number | boolean>;
}

/**
 * One guardrail run (docs/guardrails.md). `status` is `failed` only for the `error` outcome; a
 * model-judged guardrail's own model calls are separate `llm` entries under its agent path.
 */
export interface GuardrailAccountingEntry extends AccountingBase {
  type: 'guardrail';
  name: string;
  on: GuardrailStage;
  phase: GuardrailPhase;
  outcome: GuardrailOutcome;
  /** `tool` stage: the call checked. */
  callId?: string;
}

export type AccountingEntry = LlmAccountingEntry | ToolAccountingEntry | GuardrailAccountingEntry;

/**
 * Whether an entry counts as a tool call: a tool entry that is not the committed report. The one
 * rule every count follows (REST `usage.toolCalls`, `agent_tool_calls_total`, the FIN line, the
 * op tree's totals, records, the viewer and traces, which never see the report as a call).
 */
export function isToolCallEntry(entry: AccountingEntry): entry is ToolAccountingEntry {
  return entry.type === 'tool' && entry.report !== true;
}
