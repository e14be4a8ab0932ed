import type { FinalReport, FinalReportOrigin, ReportValidationError } from '@agent/protocol';
import type { FinalReportErrorSlug } from './slugs.js';

/** Where a final report came from: the XML final slot, or a native tool call. */
export type FinalReportInput =
  | {
      source: 'xml';
      /** Attributes of the final tag, e.g. `{ tool, status, format }`. */
      attributes: Readonly<Record<string, string>>;
      /** The raw tag body. */
      payload: string;
    }
  | {
      source: 'tool';
      /** The native tool call's parameters object. */
      params: Readonly<Record<string, unknown>>;
    };

export interface ProcessOptions {
  /** Clock for `report.ts`; defaults to `Date.now`. */
  now?: () => number;
  /**
   * Who made the report (`report.origin`): `declared` (default) when the model sent it as its
   * report, `adopted-text` when the caller adopts plain text the model wrote without declaring it,
   * `adopted-tool-message` when it adopts a tool result the model never declared as its report.
   */
  origin?: Exclude<FinalReportOrigin, 'synthetic'>;
  /**
   * The model's answer stopped at the output token limit. Structured formats (`json`,
   * `slack-block-kit`) are then rejected without repair; text formats are kept with a warning.
   */
  truncated?: boolean;
  /** The output token limit, quoted in the truncation reason (`token_limit: N tokens`). */
  tokenLimit?: number;
}

export interface ProcessSuccess {
  ok: true;
  report: FinalReport;
  /** Things the model got wrong that were fixed or ignored (format mismatch, metadata, encoding, ...). */
  warnings: string[];
  /** Changes made to the payload to make it usable (JSON repairs, Slack fixes). */
  repairs: string[];
}

export interface ProcessFailure {
  ok: false;
  slug: FinalReportErrorSlug;
  /** One sentence for the model and the logs. */
  reason: string;
  /** What to fix, one short line each (e.g. `/items/0/name: must be string`). */
  diagnostics: string[];
  warnings: string[];
  /**
   * Only for a JSON payload that parsed but missed the schema: the report it would have been,
   * with `validationErrors`. Kept by a session so a report the model made is never lost.
   */
  parsed?: FinalReport;
}

export type ProcessResult = ProcessSuccess | ProcessFailure;

/** `report_content` encoding declared by the model. */
export type PayloadEncoding = 'raw' | 'base64';

/** The payload as Layer 1 found it, before any format-specific work. */
export type RawPayload =
  | { kind: 'text'; text: string; encoding: PayloadEncoding; field: string }
  | { kind: 'value'; value: unknown; field: string }
  | { kind: 'missing'; field: string };

/** Layer 2's outcome: the format-specific content, or why it is unusable. */
export type FormatResult =
  | {
      ok: true;
      content?: string;
      contentJson?: Record<string, unknown>;
      repairs: string[];
      warnings: string[];
    }
  | {
      ok: false;
      slug: FinalReportErrorSlug;
      reason: string;
      diagnostics: string[];
      /** A JSON value that parsed but missed the schema, with what is wrong with it. */
      parsed?: { contentJson: Record<string, unknown>; content: string; errors: ReportValidationError[] };
    };
