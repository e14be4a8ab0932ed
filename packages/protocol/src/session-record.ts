import type { AccountingEntry } from './accounting.js';
import type { ExitCode } from './exit-codes.js';
import type { FinalReport } from './final-report.js';
import type { LogEntry } from './log-entry.js';
import type { OpNode, OpTotals } from './op-tree.js';
import type { SessionTape } from './session-tape.js';

/**
 * The version of `SessionRecord` this code writes. A reader refuses a newer one (it cannot
 * know what changed); older ones it reads as they are. Not to be confused with
 * `SESSION_SNAPSHOT_VERSION`, the checkpoint a paused session resumes from.
 * Version 2 added `input` and the session nodes' `tape`, which `agent replay` needs.
 */
export const SESSION_RECORD_VERSION = 2;

/** The `kind` every session record carries, so a reader can tell it from other JSON. */
export const SESSION_RECORD_KIND = 'agent-session-record';

/** What a node carried on the wire, as the session saw it (redacted like the logs). */
export interface OpPayload {
  /** LLM nodes: how many messages the request sent, and their characters. */
  requestMessages?: number;
  requestCharacters?: number;
  /** LLM nodes: the text the model answered (its tool calls are in the tool nodes below the turn). */
  response?: string;
  /** Tool nodes: the arguments as the model sent them (JSON text). */
  arguments?: string;
  /** Tool nodes: the text the model got back. */
  result?: string;
}

/** A node of a record's tree: the op-tree node with what it carried. */
export interface RecordNode extends Omit<OpNode, 'children'> {
  payload?: OpPayload;
  /** Session nodes (the root and sub-agents under their tool call). */
  sessionId?: string;
  totals?: OpTotals;
  /**
   * Session nodes (version 2): every model call and tool call of the session as it was made,
   * enough to replay it (docs/evals.md). Absent when the payloads were dropped.
   */
  tape?: SessionTape;
  children: RecordNode[];
}

/** What the run was asked (version 2): what `agent replay` runs again. */
export interface RecordInput {
  /** The top agent's file, absolute, as the run was given it. */
  agentFile?: string;
  /** The user's prompt as the session got it (JSON input: its JSON text). */
  prompt: string;
  /** The output format and schema the caller asked for, when not the agent file's. */
  format?: string;
  schema?: Record<string, unknown>;
  /**
   * The values of the prompt variables that describe the clock and the machine (`DATETIME`,
   * `DATE`, `TIME`, `DAY`, `TIMEZONE`, `TIMESTAMP`, `CWD`, `CD`, `OS`, `ARCH`, `KERNEL`,
   * `HOSTNAME`, `USER`) as this run used them: a replay passes them back (`promptFacts`).
   */
  promptFacts: Record<string, string>;
}

/**
 * One finished top-level session, as `persistence.sessionsDir` keeps it
 * (`<sessionId>.json.gz`, gzip-compressed JSON) and `agent inspect` reads it:
 * the op tree with the payloads, sub-agent sessions nested under their tool calls, logs,
 * accounting and the final report. docs/observability.md describes it.
 */
export interface SessionRecord {
  kind: typeof SESSION_RECORD_KIND;
  version: number;
  sessionId: string;
  /** The top agent's name. */
  agent: string;
  /** Epoch milliseconds. */
  startedAt: number;
  endedAt: number;
  durationMs: number;
  success: boolean;
  exitCode: ExitCode;
  error?: string;
  finalReport?: FinalReport;
  totals: OpTotals;
  tree: RecordNode;
  /** Version 2: what the run was asked. */
  input?: RecordInput;
  logs: LogEntry[];
  accounting: AccountingEntry[];
  /**
   * Set when the record was over the size bound and its payloads were left out: says so and
   * why. The tree, logs and accounting are still there.
   */
  payloadsDropped?: string;
  headendId?: string;
  /** The principal that started the session (`SESSION_OWNER_LABEL`), when a client did. */
  owner?: string;
}
