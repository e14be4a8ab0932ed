import type { OutputFormat } from './output-format.js';

export type FinalReportStatus = 'success' | 'failure' | 'partial';

export const FINAL_REPORT_STATUSES: readonly FinalReportStatus[] = ['success', 'failure', 'partial'];

/**
 * Who made a report: `declared` = the model sent it as its report (the FINAL tag or
 * `agent__final_report`); `adopted-text` = plain text the session adopted on the final turn,
 * the model declared no status; `adopted-tool-message` = the final turn gave no report and the
 * session adopted the last tool result instead (seed 000, "From Tool Message"), no status
 * declared either; `synthetic` = the session made it because there was none;
 * `rejected` = the model's last attempt, which failed validation on every try: kept (status
 * `failure`, the raw payload in `content`, the reasons in `rejection`) so nothing is lost, but
 * never committed (the run fails with `EXIT-INVALID-FINAL-REPORT`).
 */
export type FinalReportOrigin =
  | 'declared'
  | 'adopted-text'
  | 'adopted-tool-message'
  | 'synthetic'
  | 'rejected';

export const FINAL_REPORT_ORIGINS: readonly FinalReportOrigin[] = [
  'declared',
  'adopted-text',
  'adopted-tool-message',
  'synthetic',
  'rejected',
];

/** Why the kept last attempt of a `rejected` report was not accepted. */
export interface FinalReportRejection {
  /** Stable identifier of the reason (e.g. `final_report_schema_mismatch`). */
  slug: string;
  /** One sentence, as the model was told. */
  reason: string;
  /** What was wrong, one short line each (e.g. `/count: must be integer`). */
  diagnostics: readonly string[];
}

/** One way a JSON report misses its output schema, as the validator said it. */
export interface ReportValidationError {
  /** JSON Pointer to the value that failed (`''` for the root). */
  instancePath: string;
  /** What is wrong there, one short line (at most 200 characters). */
  message: string;
}

/**
 * How the report reached the session: `report_back` (a call of the native `report_back` tool),
 * `xml` (the nonce-tagged FINAL slot), `final_report_tool` (a native `agent__final_report`
 * call) or `text` (the model's last plain answer, adopted on the final turn). When one answer
 * carries several, the first valid one in this order is the report (seed 004, decision 4).
 */
export type FinalReportSource = 'report_back' | 'xml' | 'final_report_tool' | 'text';

export const FINAL_REPORT_SOURCES: readonly FinalReportSource[] = [
  'report_back',
  'xml',
  'final_report_tool',
  'text',
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
  /** Only on a `rejected` report: why its payload (in `content`, as the model sent it) was refused. */
  rejection?: FinalReportRejection;
  /** How a report of the model reached the session; absent on synthetic reports. */
  source?: FinalReportSource;
  /**
   * Only on a JSON report that missed the output schema on every attempt and is handed back
   * anyway (`EXIT-FINAL-REPORT-SCHEMA-MISMATCH`): what is wrong with `content_json`, at most
   * 10 (the first the validator gave; `@agent/final-report`'s `MAX_DIAGNOSTICS`).
   */
  validationErrors?: ReportValidationError[];
}
