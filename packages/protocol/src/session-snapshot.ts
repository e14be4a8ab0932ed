import type { AccountingEntry } from './accounting.js';
import type { CompactionState } from './compaction.js';
import type { ExitCode, ForcedFinalReason } from './exit-codes.js';
import type { FinalReport } from './final-report.js';
import type { ConversationMessage, ToolCall } from './messages.js';
import type { SessionNode } from './op-tree.js';
import type { ToolSearchState } from './tool-search.js';

/**
 * The snapshot format this release writes; older versions keep loading, each migrated one step
 * at a time (`@agent/core`'s `src/checkpoint/migrations/`, `docs/sessions.md`).
 * 2: pending calls and decisions carry `argumentsHash`.
 */
export const SESSION_SNAPSHOT_VERSION = 2;

/**
 * The label that names a session's owner: the principal (a hashed token, never the token) of the
 * client that started it (`docs/security.md`, "Principals and operator tokens"). Absent: started
 * by no client (the CLI, a library caller that named none); only operators see those on a server.
 */
export const SESSION_OWNER_LABEL = 'owner';

/** Where a session stands when its snapshot is taken. */
export type SessionSnapshotStatus = 'running' | 'awaiting_approval' | 'finished';

/** A stored tool output as a snapshot keeps it: its handle, what made it, and its text. */
export interface SavedToolOutput {
  handle: string;
  toolName: string;
  argumentsJson: string;
  tokens: number;
  createdAt: number;
  text: string;
}

/** A tool call waiting for a person's decision (`EXIT-AWAITING-APPROVAL`). */
export interface PendingToolCall {
  /** The model's call id: `agent resume <session> --approve <callId>`. */
  callId: string;
  tool: string;
  arguments: Record<string, unknown>;
  /**
   * `sha256:` and the hex SHA-256 of the arguments' canonical JSON (RFC 8785): what was shown
   * for approval. The call runs only if its arguments still hash to it.
   */
  argumentsHash: string;
}

/**
 * A person's answer to a pending call; a denial reaches the model as a tool failure with `reason`.
 * `argumentsHash`: the hash of the arguments the person saw (the pending call's); without it the
 * decision is bound to the pending call's hash. A call whose arguments no longer hash to it runs
 * nothing.
 */
export type ApprovalDecision =
  | { approved: true; argumentsHash?: string }
  | { approved: false; reason?: string; argumentsHash?: string };

/** Session-wide loop state a resumed session needs to continue exactly. */
export interface SnapshotLoopState {
  forcedFinal?: ForcedFinalReason;
  finalReportFailedEver: boolean;
  finalReportAttempts: number;
  taskStatusOnlyTurns: number;
  lastStopReason?: string;
  /** The last refused report attempt, kept for the result when none commits. */
  lastRejected?: { payload: string; slug: string; reason: string; diagnostics: string[] };
  /** The last refused attempt that parsed as JSON, as its report with `validationErrors`. */
  lastParsed?: FinalReport;
  /** Set when the session compacts (docs/compaction.md): where it stands, so a resume goes on the same. */
  compaction?: CompactionState;
  /** Set when tool search is on (docs/tool-search.md): the tools found, so a resume offers the same. */
  toolSearch?: ToolSearchState;
}

/**
 * A session captured at a turn boundary (or paused inside a turn for approval): plain JSON,
 * versioned. `createAgentSession({ ...agent, resumeFrom })` continues it: the resumed session
 * sends the model the same requests an uninterrupted one would have.
 */
export interface SessionSnapshot {
  version: number;
  sessionId: string;
  /** The agent's name (`main` by default). */
  agent: string;
  /** Hash of the settings that shape the requests; resuming with another agent is refused. */
  settingsHash: string;
  status: SessionSnapshotStatus;
  /** Epoch milliseconds when the snapshot was taken. */
  takenAt: number;
  /** Turns completed (the turn in flight when paused for approval). */
  turn: number;
  nonce: string;
  conversation: ConversationMessage[];
  loop: SnapshotLoopState;
  /** Per model target, in order: why it was dropped for the rest of the session (null: live). */
  droppedTargets: (string | null)[];
  /**
   * The token estimator's learned correction (reported / estimated), which a resumed session
   * starts from. A finished session (never resumed) records the one its requests were estimated
   * with: its last answer's report is not counted into it.
   */
  tokenCorrection: number;
  accounting: AccountingEntry[];
  opTree: SessionNode;
  /** Set when paused: the calls of the turn in flight, in the model's order; `pending` need a decision. */
  turnCalls?: ToolCall[];
  pending?: PendingToolCall[];
  /** Set when paused: decisions already made for calls of the turn in flight, by call id. */
  decisions?: Record<string, ApprovalDecision>;
  /**
   * Set when paused because sub-agents paused: each one's paused session, by the call id of
   * this session's call that ran it. Their pending calls are in `pending` as
   * `<callId>/<their callId>`.
   */
  children?: Record<string, SessionSnapshot>;
  /**
   * The tool-output store's outputs, so their handles still read after a resume (absent when
   * nothing was stored; bounded, the newest kept).
   */
  toolOutputs?: SavedToolOutput[];
  /**
   * What the caller keeps with the session (the runtime: `agentFile`, so `agent resume` finds it;
   * `owner` (`SESSION_OWNER_LABEL`), the principal that started it).
   */
  labels?: Record<string, string>;
  /** Set when finished. */
  exitCode?: ExitCode;
  finalReport?: FinalReport;
}
