import type { ForcedFinalReason, GuardrailTrip, ToolEndSession, ToolResultMessage } from '@agent/protocol';
import type { GuardrailRunner } from '../guardrails/guardrail-runner.js';
import type { JournalReplay } from '../journal/journal-replay.js';
import type { TurnJournal } from '../journal/turn-journal.js';
import type { OpTreeBuilder } from '../observe/op-tree.js';
import type { SessionRecorder } from '../observe/recorder.js';
import type { ToolSearch } from '../tool-search/tool-search.js';
import type { CancelSource } from './abort-fanout.js';
import type { PausedCall } from './call-runner.js';
import type { ResultSizer } from './result-sizer.js';
import type { ToolLookup } from './tool-registry.js';

// What the tool executor is built with, and what a turn's calls come to.

export interface ToolExecutorOptions {
  registry: ToolLookup;
  recorder: SessionRecorder;
  opTree: OpTreeBuilder;
  sizer: ResultSizer;
  toolTimeoutMs: number;
  maxToolCallsPerTurn: number | undefined;
  /** `agent__task_status` is answered; when false its calls are unknown tools. */
  taskStatus: boolean;
  /** `agent__batch` is answered (offered or not); when false its calls are unknown tools. */
  batch: boolean;
  /** The session offers `report_back`: like the final report, it cannot be batched. */
  reportBack?: boolean;
  signal: AbortSignal;
  /** Where the calls hear a cancellation: the session's `SessionCancel`; a fanout over `signal` when not given. */
  cancel?: CancelSource;
  agentPath: string;
  now: () => number;
  /** The session's id: with the turn and the call's id, each call's idempotency key. */
  sessionId: string;
  /** Set when the session journals its turns: each external call's outcome is written as it finishes. */
  journal?: TurnJournal;
  /** A resumed session's journal: a call whose outcome it has takes that outcome instead of running. */
  replay?: JournalReplay;
  /** Set when the session has guardrails: `result` checks run on each external call's outcome. */
  guards?: GuardrailRunner;
  /** Set when tool search is on: `tool_search` is answered, and a call of an unoffered tool marks it found. */
  toolSearch?: ToolSearch;
}

export interface TurnToolsOutcome {
  messages: ToolResultMessage[];
  /** Set when a result blew the context budget or task status asked to finish. */
  forceFinal?: ForcedFinalReason;
  /** Every call of the turn was a standalone `agent__task_status`. */
  onlyTaskStatus: boolean;
  /** The first call (in the model's order) whose tool answered for the session. */
  endSession?: { tool: string; report: ToolEndSession };
  /** Calls whose sub-agent paused for approval, in the model's order: the session pauses. */
  paused?: PausedCall[];
  /** A `result` guardrail blocked a call's result (its text is in no message): the run ends. */
  guardrail?: GuardrailTrip;
}
