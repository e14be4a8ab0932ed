import {
  type ExpectedOutput,
  FINAL_REPORT_STATUSES,
  type FinalReportStatus,
  type OutputFormat,
} from '@agent/protocol';
import type { FinalReportErrorSlug } from './slugs.js';
import type { PayloadEncoding } from './types.js';

/** The wrapper fields of a report, read and checked before its payload. */
export interface WrapperFields {
  /** Always the expected format (a disagreeing one is normalised, with a warning). */
  format: OutputFormat;
  status: FinalReportStatus;
  encoding: PayloadEncoding;
  warnings: string[];
}

export interface WrapperRejection {
  ok: false;
  slug: FinalReportErrorSlug;
  reason: string;
  diagnostics: string[];
}

export type WrapperCheck = ({ ok: true } & WrapperFields) | WrapperRejection;

export interface WrapperCheckOptions {
  /**
   * The caller adopts text the model never declared as its report: no status is expected
   * (it is taken as `success`, with a warning). Default false.
   */
  adopted?: boolean;
}

type Fields = Readonly<Record<string, unknown>>;

/**
 * Checks the wrapper of a report, from the FINAL tag's attributes or the tool call's
 * parameters, before anything of its payload is used: `status` must be one of
 * `success|failure|partial` (case-insensitive), else the attempt is rejected
 * (`final_report_status_invalid`); a missing status is rejected too unless the report is
 * adopted text or `expected.statusOptional` is set. `report_format` (alias `format`) is
 * normalised to the expected format with a warning, `encoding` to `raw|base64`.
 */
export function checkWrapper(
  fields: Fields,
  expected: ExpectedOutput,
  options: WrapperCheckOptions = {},
): WrapperCheck {
  const warnings: string[] = [];
  const format = normaliseFormat(fields.report_format ?? fields.format, expected.format, warnings);
  const status = readStatus(fields.status, options.adopted === true || expected.statusOptional === true);
  if (!status.ok) return status;
  if (status.warning !== undefined) warnings.push(status.warning);
  const encoding = readEncoding(fields.encoding, warnings);
  return { ok: true, format, status: status.status, encoding, warnings };
}

type StatusRead =
  | { ok: true; status: FinalReportStatus; warning?: string }
  | (WrapperRejection & { warning?: undefined });

const ALLOWED = FINAL_REPORT_STATUSES.map((s) => `"${s}"`).join(', ');

function readStatus(value: unknown, optional: boolean): StatusRead {
  if (value === undefined || value === null || value === '') {
    if (optional) return { ok: true, status: 'success', warning: 'status is missing; assumed "success"' };
    return statusRejection('the final report has no status', 'status is missing');
  }
  const given = typeof value === 'string' ? value.trim().toLowerCase() : '';
  const known = FINAL_REPORT_STATUSES.find((status) => status === given);
  if (known !== undefined) return { ok: true, status: known };
  const shown = JSON.stringify(value) ?? String(value);
  const cut = shown.length > 60 ? `${shown.slice(0, 59)}…` : shown;
  return statusRejection(`the final report's status ${cut} is not allowed`, `status ${cut} is not allowed`);
}

function statusRejection(reason: string, what: string): WrapperRejection {
  return {
    ok: false,
    slug: 'final_report_status_invalid',
    reason: `${reason}: it must be one of ${ALLOWED}`,
    diagnostics: [
      `${what}; use status="success" (task done), status="failure" (task could not be done) or status="partial" (answer incomplete)`,
    ],
  };
}

function normaliseFormat(value: unknown, expected: OutputFormat, warnings: string[]): OutputFormat {
  if (value === undefined || value === null) return expected;
  const given = typeof value === 'string' ? value.trim().toLowerCase() : JSON.stringify(value);
  if (given !== expected) {
    warnings.push(
      `report_format ${JSON.stringify(value)} does not match the expected format "${expected}"; using "${expected}"`,
    );
  }
  return expected;
}

function readEncoding(value: unknown, warnings: string[]): PayloadEncoding {
  if (value === undefined || value === null || value === '') return 'raw';
  const given = typeof value === 'string' ? value.trim().toLowerCase() : '';
  if (given === 'raw' || given === 'base64') return given;
  warnings.push(`encoding ${JSON.stringify(value)} is not raw|base64; treated as raw`);
  return 'raw';
}
