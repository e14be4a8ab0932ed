/** Why a session ended. Logged as `agent:EXIT-...`; the CLI maps each class to an exit code. */
export type ExitCode =
  | 'EXIT-FINAL-ANSWER'
  | 'EXIT-MAX-TURNS-NO-RESPONSE'
  | 'EXIT-TOKEN-LIMIT'
  | 'EXIT-AUTH-FAILURE'
  | 'EXIT-QUOTA-EXCEEDED'
  | 'EXIT-MODEL-ERROR'
  | 'EXIT-NO-LLM-RESPONSE'
  | 'EXIT-RETRY-EXHAUSTION'
  | 'EXIT-INVALID-FINAL-REPORT'
  /**
   * Every report attempt missed the output schema, and at least one parsed as JSON: the last
   * parsed one is the result, with `finalReport.validationErrors` (docs/final-report.md).
   */
  | 'EXIT-FINAL-REPORT-SCHEMA-MISMATCH'
  | 'EXIT-USER-STOP'
  | 'EXIT-ABORTED'
  | 'EXIT-CONFIGURATION'
  /** Paused: tool calls wait for a person's decision; resume the session with it (docs/sessions.md). */
  | 'EXIT-AWAITING-APPROVAL'
  /** A guardrail tripped (blocked, or failed closed): the result's `guardrail` names it (docs/guardrails.md). */
  | 'EXIT-GUARDRAIL'
  | 'EXIT-UNCAUGHT-EXCEPTION';

export const EXIT_CODES: readonly ExitCode[] = [
  'EXIT-FINAL-ANSWER',
  'EXIT-MAX-TURNS-NO-RESPONSE',
  'EXIT-TOKEN-LIMIT',
  'EXIT-AUTH-FAILURE',
  'EXIT-QUOTA-EXCEEDED',
  'EXIT-MODEL-ERROR',
  'EXIT-NO-LLM-RESPONSE',
  'EXIT-RETRY-EXHAUSTION',
  'EXIT-INVALID-FINAL-REPORT',
  'EXIT-FINAL-REPORT-SCHEMA-MISMATCH',
  'EXIT-USER-STOP',
  'EXIT-ABORTED',
  'EXIT-CONFIGURATION',
  'EXIT-AWAITING-APPROVAL',
  'EXIT-GUARDRAIL',
  'EXIT-UNCAUGHT-EXCEPTION',
];

/** Why the session forced its final turn; the XML-NEXT notice words each one. */
export type ForcedFinalReason =
  | 'context'
  | 'max_turns'
  | 'task_status_completed'
  | 'task_status_only'
  | 'retry_exhaustion'
  | 'user_stop';

export const FORCED_FINAL_REASONS: readonly ForcedFinalReason[] = [
  'context',
  'max_turns',
  'task_status_completed',
  'task_status_only',
  'retry_exhaustion',
  'user_stop',
];
