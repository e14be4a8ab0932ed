import type { AccountingEntry } from './accounting.js';
import type { CompactionRun } from './compaction.js';
import type { ForcedFinalReason } from './exit-codes.js';
import type { FinalReport } from './final-report.js';
import type { GuardrailRun, ToolPolicyVerdict } from './guardrail-run.js';
import type { LogEntry } from './log-entry.js';
import type { SessionNode } from './op-tree.js';
import type { ProgressEvent } from './progress.js';
import type { SessionSnapshot } from './session-snapshot.js';
import type { ToolSearchRun } from './tool-search.js';

/** Everything a running session says, in one union. Payloads are shared, never deep-copied: treat them as read-only. */
export type AgentEvent =
  /** The report's text: streamed as it is written (source `stream`) or sent once committed (`finalize`). */
  | { type: 'output'; text: string }
  /**
   * Text the model wrote outside the report: beside its tool calls, around the report tag, a
   * plain answer the session retried. Never part of the report, so a consumer that shows both
   * this and `output` shows each piece once; text adopted as the report goes out as `output`
   * only. Streamed as it arrives (source `stream`), except where it may still become the
   * report (a final turn): then sent whole once the answer is judged (source `finalize`).
   * Whitespace-only text at the end of an answer is not sent; nothing of it is ever retracted.
   */
  | { type: 'assistant_text'; text: string }
  /**
   * The `output` text this session streamed (source `stream`) since its last `turn_started`
   * will not become the report: the attempt was rejected or failed, and the session retries or
   * ends. A consumer drops those `characters` (UTF-16 code units) of streamed text, or, when it
   * cannot take text back, stops trusting it. Sent only when something was streamed.
   */
  | { type: 'output_retracted'; characters: number; slug: string; reason: string }
  | { type: 'thinking'; text: string }
  | {
      type: 'turn_started';
      turn: number;
      attempt: number;
      isRetry: boolean;
      isFinalTurn: boolean;
      forcedFinalReason?: ForcedFinalReason;
      /** Short slugs of what went wrong on the previous attempt (e.g. `invalid_final_report`). */
      retrySlugs?: string[];
    }
  | { type: 'progress'; event: ProgressEvent }
  /** Mirror of `progress` for `agent_update` events, for headends that only show status. */
  | { type: 'status'; event: ProgressEvent }
  | { type: 'final_report'; report: FinalReport }
  /**
   * Control passes to another agent (a router's choice or a configured handoff): sent instead
   * of `final_report` by the session whose report goes on. `report` is the next agent's input,
   * not the answer; `from` and `to` are the two agent paths.
   */
  | { type: 'handoff'; report: FinalReport; from: string; to: string; via: 'router' | 'handoff' }
  | { type: 'log'; entry: LogEntry }
  | { type: 'accounting'; entry: AccountingEntry }
  | { type: 'op_tree'; tree: SessionNode }
  /**
   * A snapshot the session took (seed 002's `snapshot` event): at each turn boundary and at
   * the end when it checkpoints (`onCheckpoint` gets the same object), and when it pauses for
   * approval (the result's `snapshot`). A session that does neither takes none.
   */
  | { type: 'snapshot'; payload: SessionSnapshot }
  /** An answer came from a cache instead of a model or a tool (see `CacheHit`). */
  | { type: 'cache_hit'; hit: CacheHit }
  /**
   * The model's complete answer of `turn` is in the turn journal (the store has it): a resumed
   * session replays that answer instead of asking the model again, so the `output` this session
   * streamed for `turn` is final once this arrives. A face that cannot take text back holds the
   * report text of a turn until then (`docs/sessions.md`). Sent only by a session that journals.
   */
  | { type: 'answer_journaled'; turn: number }
  /**
   * A guardrail ran (docs/guardrails.md): its outcome, sent after the check and before anything
   * acts on it. A `block` (or an `error` that failed closed) ends the run `EXIT-GUARDRAIL`.
   */
  | { type: 'guardrail'; run: GuardrailRun }
  /** The tool policy decided a call (allow, deny or ask) and which rule matched; before the call runs. */
  | { type: 'tool_policy'; verdict: ToolPolicyVerdict }
  /**
   * The session compacted its older turns between two turns (docs/compaction.md), or tried and
   * could not (`outcome: 'failed'`, nothing changed). Sent once per compaction, after its summary
   * calls and before the next turn's request.
   */
  | { type: 'compaction'; run: CompactionRun }
  /**
   * The model searched the session's tools (docs/tool-search.md): what it asked and found. Sent
   * after the search; the tools it added are offered from the next request on.
   */
  | { type: 'tool_search'; run: ToolSearchRun };

/**
 * What a cache answered: `response` = a whole session's report (the agent's `cache` TTL),
 * `tool` = one tool call's result (an MCP server's `cache` / `toolsCache`).
 */
export interface CacheHit {
  kind: 'response' | 'tool';
  /** The first 16 hex digits of the entry's SHA-256 key (enough to find it in logs). */
  key: string;
  /** The store that answered: `sqlite`, `redis`, `memory`. */
  backend: string;
  /** Milliseconds since the entry was stored. */
  ageMs: number;
  /** Milliseconds the entry has left before it expires. */
  expiresInMs: number;
  /** For `tool`: the MCP server and the tool's own name. */
  server?: string;
  tool?: string;
}

export type AgentEventType = AgentEvent['type'];

export interface AgentEventMeta {
  /** True for the top-level session, false inside sub-agents. */
  isMaster: boolean;
  /** Authoritative only for `final_report` events. */
  isFinal: boolean;
  /**
   * For `output`/`assistant_text`/`thinking`: streamed as it arrived, replayed, emitted once at
   * the end, or replayed from the turn journal by a resumed session (`journal`: the same text
   * the crashed process streamed for that turn, after its `answer_journaled`).
   */
  source?: 'stream' | 'replay' | 'finalize' | 'journal';
  sessionId: string;
  /** Dotted agent path from the root session. */
  agentPath: string;
  headendId?: string;
  /**
   * Set by runtimes that chain agents: this agent has a `handoff` agent that runs after it, so
   * its report is not the answer.
   */
  handoffConfigured?: boolean;
  /**
   * Set by runtimes that chain agents: how many handoff agents will still run after this one
   * (known at its start). Above 0, its `output` is not the answer to show.
   */
  pendingHandoffCount?: number;
}

export interface AgentEventCallbacks {
  onEvent?: (event: AgentEvent, meta: AgentEventMeta) => void;
}
