/**
 * The small string unions this package needs. They mirror `@agent/protocol` on purpose:
 * xml-transport has no dependencies, not even on the contracts package.
 */

/** The formats a caller can ask the final report in (same names as `@agent/protocol`). */
export type ReportFormat =
  | 'json'
  | 'markdown'
  | 'markdown+mermaid'
  | 'slack-block-kit'
  | 'tty'
  | 'pipe'
  | 'sub-agent'
  | 'text';

/** Formats whose payload is parsed as JSON, so a cut-off payload is unusable. */
export const STRUCTURED_REPORT_FORMATS: readonly ReportFormat[] = ['json', 'slack-block-kit'];

/** Why the session forced its final turn (same names as `@agent/protocol`). */
export type ForcedFinalReason =
  | 'context'
  | 'max_turns'
  | 'task_status_completed'
  | 'task_status_only'
  | 'retry_exhaustion'
  | 'user_stop';

/** The values the `status` attribute of the FINAL tag may take. */
export type ReportStatus = 'success' | 'failure' | 'partial';

/** The only tool that may travel inside the XML tag. */
export const FINAL_REPORT_TOOL = 'agent__final_report';
/** Seed 000's short name of the same tool, accepted in the tag's `tool` attribute too. */
export const FINAL_REPORT_SHORT_NAME = 'final_report';
