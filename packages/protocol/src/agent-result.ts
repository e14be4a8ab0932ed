import type { AccountingEntry } from './accounting.js';
import type { ExitCode } from './exit-codes.js';
import type { FinalReport } from './final-report.js';
import type { GuardrailTrip } from './guardrail-run.js';
import type { LogEntry } from './log-entry.js';
import type { ConversationMessage } from './messages.js';
import type { SessionNode } from './op-tree.js';
import type { PendingToolCall, SessionSnapshot } from './session-snapshot.js';

/** What every result carries, whatever the ending. */
export interface AgentResultBase {
  /** The marker logged as `agent:EXIT-...`. */
  exitCode: ExitCode;
  conversation: ConversationMessage[];
  logs: LogEntry[];
  accounting: AccountingEntry[];
  opTree?: SessionNode;
  sessionId: string;
  /**
   * Set by runtimes that chain agents (advisors, router, handoff): the name of the agent whose
   * report this result carries.
   */
  finalAgentId?: string;
}

/** The run completed: the model committed a report. Task-level failure is `finalReport.status`. */
export interface AgentSuccess extends AgentResultBase {
  success: true;
  finalReport: FinalReport;
  error?: undefined;
  inputRejected?: undefined;
}

/** The run failed: `error` says why. A report may still be there (a synthetic one, or none). */
export interface AgentFailure extends AgentResultBase {
  success: false;
  /** Why the run failed. */
  error: string;
  finalReport?: FinalReport;
  /**
   * Set when the session refused its input before any model call (`EXIT-CONFIGURATION`): an
   * output schema that is not a usable JSON Schema, or one that cannot fit the context window
   * together with the prompt. The caller's request was wrong, not the run: headends answer 400.
   */
  inputRejected?: true;
  /** `EXIT-GUARDRAIL`: the guardrail that tripped, and why (nothing it blocked is in the result). */
  guardrail?: GuardrailTrip;
  /** `EXIT-AWAITING-APPROVAL`: the calls that wait for a decision, with their arguments. */
  pendingApprovals?: PendingToolCall[];
  /** `EXIT-AWAITING-APPROVAL`: the paused session, to resume with the decisions (`resume`). */
  snapshot?: SessionSnapshot;
}

/**
 * What a session resolves to, always: on success, on failure and when aborted. Check `success`
 * and the type narrows: `finalReport` is there after `if (result.success)`, `error` otherwise.
 */
export type AgentResult = AgentSuccess | AgentFailure;
