import type { ReportValidationError } from '@agent/protocol';
import type { ErrorObject } from '@agent/schema';
import { getAt } from './json-pointer.js';

export const MAX_DIAGNOSTICS = 10;
export const MAX_DIAGNOSTIC_LENGTH = 200;

/** Cuts a line to `max` characters, marking the cut with `…`. */
export function shortLine(line: string, max = MAX_DIAGNOSTIC_LENGTH): string {
  const flat = line.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/**
 * AJV errors as lines the model can act on: `<instancePath>: <message> (<detail>)`,
 * `/` for the root, at most `MAX_DIAGNOSTICS` lines of at most `MAX_DIAGNOSTIC_LENGTH`
 * characters, then `… and N more`. With the validated value, a scalar that failed is
 * quoted (`(got "x")`).
 */
export function formatAjvErrors(errors: readonly ErrorObject[], value?: unknown): string[] {
  const lines: string[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    const got = value === undefined ? '' : gotValue(getAt(value, error.instancePath));
    const line = shortLine(
      `${error.instancePath === '' ? '/' : error.instancePath}: ${describe(error)}${got}`,
    );
    if (!seen.has(line)) {
      seen.add(line);
      lines.push(line);
    }
  }
  return capLines(lines);
}

/**
 * AJV errors as `{ instancePath, message }` for a report's `validationErrors`: the first
 * `MAX_DIAGNOSTICS` distinct ones, each message at most `MAX_DIAGNOSTIC_LENGTH` characters.
 */
export function validationErrors(errors: readonly ErrorObject[]): ReportValidationError[] {
  const kept: ReportValidationError[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    const entry = { instancePath: error.instancePath, message: shortLine(describe(error)) };
    const key = `${entry.instancePath}\u0000${entry.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    kept.push(entry);
    if (kept.length === MAX_DIAGNOSTICS) break;
  }
  return kept;
}

/** Keeps the first `MAX_DIAGNOSTICS` lines and says how many were left out. */
export function capLines(lines: readonly string[]): string[] {
  if (lines.length <= MAX_DIAGNOSTICS) return [...lines];
  return [...lines.slice(0, MAX_DIAGNOSTICS), `… and ${lines.length - MAX_DIAGNOSTICS} more`];
}

function describe(error: ErrorObject): string {
  const message = error.message ?? `fails "${error.keyword}"`;
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'enum':
      return `${message}: ${list(params.allowedValues)}`;
    case 'const':
      return `${message}: ${JSON.stringify(params.allowedValue)}`;
    case 'additionalProperties':
      return `${message}: '${String(params.additionalProperty)}'`;
    default:
      return message;
  }
}

function list(values: unknown): string {
  return Array.isArray(values) ? values.map((v) => JSON.stringify(v)).join(', ') : String(values);
}

function gotValue(actual: unknown): string {
  if (actual === undefined || (typeof actual === 'object' && actual !== null)) return '';
  const text = JSON.stringify(actual) ?? String(actual);
  return ` (got ${text.length > 40 ? `${text.slice(0, 39)}…` : text})`;
}
