import {
  FINAL_REPORT_STATUSES,
  FINAL_REPORT_TOOL,
  type FinalReportStatus,
  type OutputFormat,
} from '@agent/protocol';
import { isRecord } from '@agent/protocol/util';
import type { FinalReportInput, PayloadEncoding, RawPayload } from './types.js';

/** Layer 1's outcome: the wrapper fields, and the payload untouched. */
export interface Wrapper {
  /** Always the expected format (a disagreeing one is normalised, with a warning). */
  format: OutputFormat;
  status: FinalReportStatus;
  metadata?: Record<string, unknown>;
  payload: RawPayload;
  warnings: string[];
}

type Fields = Readonly<Record<string, unknown>>;

/**
 * Layer 1 (transport): takes the wrapper fields (`report_format` or its alias `format`,
 * `status`, `metadata`, `encoding`) from the XML tag attributes or the tool parameters,
 * and the raw payload from the tag body or the content field the format uses
 * (`content_json`, `messages`, or `report_content` / its alias `content`).
 */
export function extractWrapper(input: FinalReportInput, expected: OutputFormat): Wrapper {
  const warnings: string[] = [];
  const fields: Fields =
    input.source === 'xml' ? input.attributes : isRecord(input.params) ? input.params : {};
  if (input.source === 'xml') {
    const tool = input.attributes.tool;
    if (tool !== undefined && tool !== FINAL_REPORT_TOOL) {
      warnings.push(`the final tag names tool "${tool}"; treated as ${FINAL_REPORT_TOOL}`);
    }
  }
  const format = normaliseFormat(fields.report_format ?? fields.format, expected, warnings);
  const status = normaliseStatus(fields.status, warnings);
  const metadata = readMetadata(fields.metadata, warnings);
  const encoding = readEncoding(fields.encoding, warnings);
  const payload =
    input.source === 'xml'
      ? ({ kind: 'text', text: String(input.payload ?? ''), encoding, field: 'the final tag body' } as const)
      : toolPayload(fields, expected, encoding, warnings);
  return { format, status, payload, warnings, ...(metadata === undefined ? {} : { metadata }) };
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

function normaliseStatus(value: unknown, warnings: string[]): FinalReportStatus {
  if (value === undefined || value === null || value === '') {
    warnings.push('status is missing; assumed "success"');
    return 'success';
  }
  const given = typeof value === 'string' ? value.trim().toLowerCase() : '';
  const known = FINAL_REPORT_STATUSES.find((status) => status === given);
  if (known !== undefined) return known;
  warnings.push(
    `status ${JSON.stringify(value)} is not one of ${FINAL_REPORT_STATUSES.join('|')}; assumed "success"`,
  );
  return 'success';
}

function readMetadata(value: unknown, warnings: string[]): Record<string, unknown> | undefined {
  if (value === undefined || value === null) return undefined;
  if (isRecord(value)) return { ...value };
  if (typeof value === 'string') {
    try {
      const parsed: unknown = JSON.parse(value);
      if (isRecord(parsed)) return parsed;
    } catch {
      // reported below
    }
  }
  warnings.push('metadata is not a JSON object; ignored');
  return undefined;
}

function readEncoding(value: unknown, warnings: string[]): PayloadEncoding {
  if (value === undefined || value === null || value === '') return 'raw';
  const given = typeof value === 'string' ? value.trim().toLowerCase() : '';
  if (given === 'raw' || given === 'base64') return given;
  warnings.push(`encoding ${JSON.stringify(value)} is not raw|base64; treated as raw`);
  return 'raw';
}

/** The content field for the expected format, then the text fields as a fallback. */
function toolPayload(
  fields: Fields,
  expected: OutputFormat,
  encoding: PayloadEncoding,
  warnings: string[],
): RawPayload {
  const structuredField =
    expected === 'json' ? 'content_json' : expected === 'slack-block-kit' ? 'messages' : undefined;
  if (structuredField !== undefined) {
    const value = fields[structuredField];
    if (typeof value === 'string')
      return { kind: 'text', text: value, encoding: 'raw', field: structuredField };
    if (value !== undefined && value !== null) return { kind: 'value', value, field: structuredField };
  }
  const field =
    fields.report_content === undefined && fields.content !== undefined ? 'content' : 'report_content';
  const text = fields[field];
  if (text !== undefined && text !== null) {
    if (typeof text === 'string') return { kind: 'text', text, encoding, field };
    warnings.push(`${field} is not a string; used its JSON text`);
    return { kind: 'text', text: JSON.stringify(text), encoding: 'raw', field };
  }
  if (structuredField === undefined && isRecord(fields.content_json)) {
    warnings.push('report_content is missing; used the JSON text of content_json');
    return {
      kind: 'text',
      text: JSON.stringify(fields.content_json, null, 2),
      encoding: 'raw',
      field: 'content_json',
    };
  }
  return { kind: 'missing', field: structuredField ?? 'report_content' };
}
