import type { OutputFormat } from './output-format.js';

export type FinalReportStatus = 'success' | 'failure' | 'partial';

export const FINAL_REPORT_STATUSES: readonly FinalReportStatus[] = ['success', 'failure', 'partial'];

/**
 * Who made a report: `declared` = the model sent it as its report (the FINAL tag or
 * `agent__final_report`); `adopted-text` = plain text the session adopted on the final turn,
 * the model declared no status; `adopted-tool-message` = the final turn gave no report and the
 * session adopted the last tool result instead (seed 000, "From Tool Message"), no status
 * declared either; `synthetic` = the session made it because there was none.
 */
export type FinalReportOrigin = 'declared' | 'adopted-text' | 'adopted-tool-message' | 'synthetic';

export const FINAL_REPORT_ORIGINS: readonly FinalReportOrigin[] = [
  'declared',
  'adopted-text',
  'adopted-tool-message',
  'synthetic',
];

/**
 * The one answer a session hands back. Wrapper fields (status, format, metadata) never
 * enter the payload: a user schema with its own `status` keeps it inside `content_json`.
 */
export interface FinalReport {
  status: FinalReportStatus;
  format: OutputFormat;
  /** Text payload (all text formats, `sub-agent`, and the serialised Slack messages). */
  content?: string;
  /** Structured payload: the user's JSON for `json`, `{ messages }` for `slack-block-kit`. */
  content_json?: Record<string, unknown>;
  metadata?: Record<string, unknown>;
  /** Epoch milliseconds when the report was committed. */
  ts: number;
  /** True when the session made this report itself because the model gave none (kept beside `origin`). */
  synthetic?: boolean;
  /** Who made the report; absent only on reports from before this field existed. */
  origin?: FinalReportOrigin;
}
