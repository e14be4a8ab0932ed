import type { AccountingEntry } from './accounting.js';
import type { ExitCode } from './exit-codes.js';
import type { FinalReport } from './final-report.js';
import type { LogEntry } from './log-entry.js';
import type { ConversationMessage } from './messages.js';
import type { SessionNode } from './op-tree.js';

/** What a session resolves to, always: on success, on failure and when aborted. */
export interface AgentResult {
  /** The run completed (a report was committed). Task-level failure is `finalReport.status`. */
  success: boolean;
  /** Why the run failed, when it did. */
  error?: string;
  /** The marker logged as `agent:EXIT-...`. */
  exitCode: ExitCode;
  /**
   * Set when the session refused its input before any model call (`EXIT-CONFIGURATION`): an
   * output schema that is not a usable JSON Schema, or one that cannot fit the context window
   * together with the prompt. The caller's request was wrong, not the run: headends answer 400.
   */
  inputRejected?: true;
  finalReport?: FinalReport;
  conversation: ConversationMessage[];
  logs: LogEntry[];
  accounting: AccountingEntry[];
  opTree?: SessionNode;
  sessionId: string;
}
