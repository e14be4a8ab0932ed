import type { JsonSchema, ReportValidationError } from '@agent/protocol';
import { compileSchema, measureJson } from '@agent/schema';
import { formatAjvErrors, shortLine, validationErrors } from './diagnostics.js';
import { MAX_JSON_DEPTH, parseJsonLenient } from './json-lenient.js';
import { validateWithNestedRepair } from './nested-repair.js';
import { resolvePayloadText } from './payload-text.js';
import { truncatedFailure } from './truncation.js';
import type { FormatResult, ProcessOptions, RawPayload } from './types.js';

type FormatFailure = Extract<FormatResult, { ok: false }>;

/** Without a caller schema a `json` report must still be a JSON object. */
export const DEFAULT_JSON_SCHEMA: JsonSchema = Object.freeze({ type: 'object' });

/**
 * Layer 2 for `json`: parse the payload leniently (or take the tool's `content_json`
 * object as is), then validate it against the schema with the stringified-nested-JSON
 * repair loop. `content` is the value as pretty JSON text (2-space indent).
 */
export function processJsonFormat(
  payload: RawPayload,
  schema: JsonSchema | undefined,
  options: ProcessOptions,
): FormatResult {
  if (options.truncated === true) return truncatedFailure('json', options);
  const repairs: string[] = [];
  const read = payloadValue(payload, repairs);
  if ('ok' in read) return read;
  const compiled = compileSchema(schema ?? DEFAULT_JSON_SCHEMA);
  if (!compiled.ok) {
    return {
      ok: false,
      slug: 'final_report_schema_invalid',
      reason: `the expected output schema is ${compiled.error}`,
      diagnostics: [shortLine(compiled.error)],
    };
  }
  const checked = validateWithNestedRepair(read.value, compiled.validate);
  repairs.push(...checked.repairs);
  if (checked.errors.length > 0) {
    return {
      ok: false,
      slug: 'final_report_schema_mismatch',
      reason: `content_json does not match the expected schema (${checked.errors.length} problem${checked.errors.length === 1 ? '' : 's'}); fix the fields listed`,
      diagnostics: formatAjvErrors(checked.errors, checked.value),
      ...keptValue(checked.value, validationErrors(checked.errors)),
    };
  }
  if (typeof checked.value !== 'object' || checked.value === null) {
    return {
      ok: false,
      slug: 'final_report_schema_mismatch',
      reason: 'content_json must be a JSON object (or an array when the schema asks for one)',
      diagnostics: [
        `/: must be object, got ${typeof checked.value === 'object' ? 'null' : typeof checked.value}`,
      ],
    };
  }
  return {
    ok: true,
    // Arrays are kept when the caller's schema asks for one (the protocol types it as a record).
    contentJson: checked.value as Record<string, unknown>,
    content: JSON.stringify(checked.value, null, 2),
    repairs,
    warnings: [],
  };
}

/** A parsed object or array that missed the schema, kept beside the failure (never a scalar). */
function keptValue(value: unknown, errors: ReportValidationError[]): Pick<FormatFailure, 'parsed'> {
  if (typeof value !== 'object' || value === null) return {};
  return {
    parsed: {
      contentJson: value as Record<string, unknown>,
      content: JSON.stringify(value, null, 2),
      errors,
    },
  };
}

/**
 * The payload's value: the tool's `content_json` as is (within the depth limit), or the text
 * parsed leniently; the repairs made are added to `repairs`.
 */
function payloadValue(
  payload: RawPayload,
  repairs: string[],
): { value: unknown } | Extract<FormatResult, { ok: false }> {
  if (payload.kind === 'value') {
    if (measureJson(payload.value, { maxDepth: MAX_JSON_DEPTH }).ok) return { value: payload.value };
    return {
      ok: false,
      slug: 'final_report_json_invalid',
      reason: `content_json nests deeper than the limit of ${MAX_JSON_DEPTH} levels`,
      diagnostics: [`${payload.field}: nests deeper than ${MAX_JSON_DEPTH} levels; send a flatter object`],
    };
  }
  const text = resolvePayloadText(payload);
  if (!text.ok) return text;
  repairs.push(...text.repairs);
  const parsed = parseJsonLenient(text.text, { unwrapStringified: true });
  if (!parsed.ok) {
    return {
      ok: false,
      slug: 'final_report_json_invalid',
      reason: `the json final report is not JSON: ${parsed.error}`,
      diagnostics: [
        `${payload.field}: ${parsed.error}`,
        shortLine(`it starts with: ${JSON.stringify(text.text.trim().slice(0, 80))}`),
        'send exactly one JSON object, with no text around it',
      ],
    };
  }
  repairs.push(...parsed.repairs);
  return { value: parsed.value };
}
