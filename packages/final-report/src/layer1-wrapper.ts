import {
  type ExpectedOutput,
  FINAL_REPORT_TOOL,
  type FinalReportStatus,
  type OutputFormat,
} from '@agent/protocol';
import { isRecord } from '@agent/protocol/util';
import type { FinalReportInput, PayloadEncoding, RawPayload } from './types.js';
import { checkWrapper, type WrapperCheckOptions, type WrapperRejection } from './wrapper-check.js';

/** Layer 1's outcome: the wrapper fields, and the payload untouched. */
export interface Wrapper {
  ok: true;
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
 * (`content_json`, `messages`, or `report_content` / its alias `content`). A wrapper whose
 * status is missing or unknown is rejected here (`checkWrapper`), before the payload is read.
 */
export function extractWrapper(
  input: FinalReportInput,
  expected: ExpectedOutput,
  options: WrapperCheckOptions = {},
): Wrapper | WrapperRejection {
  const fields: Fields =
    input.source === 'xml' ? input.attributes : isRecord(input.params) ? input.params : {};
  const checked = checkWrapper(fields, expected, options);
  if (!checked.ok) return checked;
  const warnings: string[] = [];
  if (input.source === 'xml') {
    const tool = input.attributes.tool;
    if (tool !== undefined && tool !== FINAL_REPORT_TOOL) {
      warnings.push(`the final tag names tool "${tool}"; treated as ${FINAL_REPORT_TOOL}`);
    }
  }
  warnings.push(...checked.warnings);
  const { format, status, encoding } = checked;
  const metadata = readMetadata(fields.metadata, warnings);
  const payload =
    input.source === 'xml'
      ? ({ kind: 'text', text: String(input.payload ?? ''), encoding, field: 'the final tag body' } as const)
      : toolPayload(fields, format, encoding, warnings);
  return { ok: true, format, status, payload, warnings, ...(metadata === undefined ? {} : { metadata }) };
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
