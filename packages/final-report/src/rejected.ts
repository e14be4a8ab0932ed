import type { FinalReport, OutputFormat } from '@agent/protocol';

export interface RejectedReportInput {
  format: OutputFormat;
  /** The attempt as the model sent it: the tag body, the tool call's arguments as JSON, or the adopted text. */
  payload: string;
  /** Why it was refused, as the processor said (`ProcessFailure`). */
  slug: string;
  reason: string;
  diagnostics: readonly string[];
  /** Clock for `ts`; defaults to `Date.now`. */
  now?: () => number;
}

/**
 * The model's last report attempt, kept when every attempt was invalid so nothing is lost:
 * status `failure`, `origin: 'rejected'`, the raw payload in `content` (never parsed into
 * `content_json`: it did not validate) and the reasons in `rejection`. A session returns it
 * in a failed result (`EXIT-INVALID-FINAL-REPORT`); it is never committed.
 */
export function rejectedReport(input: RejectedReportInput): FinalReport {
  return {
    status: 'failure',
    format: input.format,
    content: input.payload,
    ts: (input.now ?? Date.now)(),
    origin: 'rejected',
    rejection: { slug: input.slug, reason: input.reason, diagnostics: [...input.diagnostics] },
  };
}
