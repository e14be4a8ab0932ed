/**
 * Stable identifiers of why a final report was rejected. They go into retry notices,
 * logs and `turn_started.retrySlugs`, so they never change once published.
 */
export const FINAL_REPORT_ERROR_SLUGS = [
  /** The payload is empty or whitespace only (every format, `sub-agent` included). */
  'final_report_empty',
  /** `json`: no JSON value could be recovered from the payload. */
  'final_report_json_invalid',
  /** `json`: the parsed value does not match the expected schema (after repairs). */
  'final_report_schema_mismatch',
  /** `encoding: base64` but the content is not valid base64 of UTF-8 text. */
  'final_report_base64_invalid',
  /** `json` / `slack-block-kit`: the answer was cut at the output token limit. */
  'final_report_truncated',
  /** The caller's schema itself does not compile; the model cannot fix this. */
  'final_report_schema_invalid',
  /** An unexpected internal error; processing never throws, it reports this instead. */
  'final_report_internal_error',
  /** The wrapper's `status` is missing or not `success|failure|partial` (checked before the payload). */
  'final_report_status_invalid',
] as const;

export type FinalReportErrorSlug = (typeof FINAL_REPORT_ERROR_SLUGS)[number];
