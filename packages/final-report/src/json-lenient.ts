import { createRequire } from 'node:module';
import { measureJson } from '@agent/schema';
import type { jsonrepair as JsonRepair } from 'jsonrepair';
import { bracketDepth, fencedBodies, type JsonSpan, jsonSpans, trailingProseStart } from './json-extract.js';

/**
 * The deepest JSON accepted. `JSON.parse` copes with any depth, but the repair parser and
 * everything after parsing (schema validation, `JSON.stringify`) recurse: deeper values are
 * refused with this reason instead of overflowing the stack.
 */
export const MAX_JSON_DEPTH = 512;
const TOO_DEEP = `the JSON nests deeper than the limit of ${MAX_JSON_DEPTH} levels`;

export interface LenientJsonOptions {
  /** Among top-level spans in prose, try `[...]` before `{...}` (Slack messages arrays). */
  preferArray?: boolean;
  /**
   * When the result is a string that itself holds a JSON object or array
   * (`"{\"a\":1}"`), return the decoded object instead. Off by default, so that
   * `parseJsonLenient(JSON.stringify(v))` is always `v`.
   */
  unwrapStringified?: boolean;
}

export type LenientJsonResult =
  | { ok: true; value: unknown; repaired: boolean; repairs: string[] }
  | { ok: false; error: string };

type Parsed = { ok: true; value: unknown } | { ok: false };

/** jsonrepair (its CommonJS build), loaded by the first JSON that needs a repair. */
let repairer: typeof JsonRepair | undefined;
function jsonrepair(text: string): string {
  repairer ??= (createRequire(import.meta.url)('jsonrepair') as { jsonrepair: typeof JsonRepair }).jsonrepair;
  return repairer(text);
}

const REPAIRED = 'repaired malformed JSON (quotes, commas, brackets, comments or literals)';

/**
 * Parses JSON the way models write it. Strict `JSON.parse` first; then the body of a
 * Markdown code fence; then the balanced `{...}` / `[...]` spans inside prose, strictly
 * and then through `jsonrepair` (trailing commas, single or smart quotes, unquoted keys,
 * raw newlines in strings, unclosed brackets or strings, comments, Python literals).
 * Never throws.
 */
export function parseJsonLenient(text: string, options: LenientJsonOptions = {}): LenientJsonResult {
  if (typeof text !== 'string') return { ok: false, error: `expected a string, got ${typeof text}` };
  const repairs: string[] = [];
  let source = text;
  if (source.charCodeAt(0) === 0xfeff) {
    source = source.slice(1);
    repairs.push('removed a byte order mark');
  }
  const trimmed = source.trim();
  if (trimmed === '') return { ok: false, error: 'the text is empty' };

  const direct = strict(trimmed);
  if (direct.ok) return finish(direct.value, repairs, options);
  if (bracketDepth(trimmed) > MAX_JSON_DEPTH) return { ok: false, error: TOO_DEEP };

  const preferArray = options.preferArray === true;
  const fences = fencedBodies(trimmed).map((body) => body.trim());
  for (const allowRepair of [false, true]) {
    for (const body of fences) {
      const inner = fromCandidate(body, preferArray, allowRepair);
      if (inner === undefined) continue;
      repairs.push('took the JSON out of a Markdown code fence', ...inner.repairs);
      return finish(inner.value, repairs, options);
    }
    const found = fromCandidate(trimmed, preferArray, allowRepair);
    if (found !== undefined) {
      repairs.push(...found.repairs);
      return finish(found.value, repairs, options);
    }
  }
  return {
    ok: false,
    error: hasBracket(trimmed)
      ? 'the JSON could not be parsed or repaired'
      : 'no JSON object or array was found in the text',
  };
}

function fromCandidate(
  text: string,
  preferArray: boolean,
  allowRepair: boolean,
): { value: unknown; repairs: string[] } | undefined {
  if (text === '') return undefined;
  const whole = strict(text);
  if (whole.ok) return { value: whole.value, repairs: [] };

  const spans = order(jsonSpans(text), preferArray);
  if (!allowRepair) {
    for (const span of spans) {
      if (!span.closed) continue;
      const parsed = strict(span.text);
      if (parsed.ok) return { value: parsed.value, repairs: extracted(span, text) };
    }
    return undefined;
  }
  const ranked = [...spans].sort(
    (a, b) => rank(a, preferArray) - rank(b, preferArray) || b.text.length - a.text.length,
  );
  for (const span of ranked) {
    for (const variant of variants(span)) {
      const parsed = repaired(variant.text);
      if (!parsed.ok || kindOf(parsed.value) !== span.kind) continue;
      return { value: parsed.value, repairs: [...extracted(span, text), ...variant.repairs, REPAIRED] };
    }
  }
  return undefined;
}

/** An unclosed span may end in an explanation paragraph; try without it first. */
function variants(span: JsonSpan): { text: string; repairs: string[] }[] {
  const full = { text: span.text, repairs: [] };
  if (span.closed) return [full];
  const cut = trailingProseStart(span.text);
  if (cut === -1) return [full];
  return [{ text: span.text.slice(0, cut), repairs: ['dropped the explanation after the JSON'] }, full];
}

function order(spans: JsonSpan[], preferArray: boolean): JsonSpan[] {
  if (!preferArray) return spans;
  return [...spans.filter((s) => s.kind === 'array'), ...spans.filter((s) => s.kind === 'object')];
}

/** Lower ranks are tried first: (preferred kind) then (looks like JSON: has quotes or colons). */
function rank(span: JsonSpan, preferArray: boolean): number {
  const kind = preferArray && span.kind === 'object' ? 2 : 0;
  const jsonish = /["':\u201c]/.test(span.text) ? 0 : 1;
  return kind + jsonish;
}

function extracted(span: JsonSpan, text: string): string[] {
  return span.text.length === text.length ? [] : ['extracted the JSON from the text around it'];
}

function finish(value: unknown, repairs: string[], options: LenientJsonOptions): LenientJsonResult {
  let current = value;
  for (
    let depth = 0;
    depth < 3 && options.unwrapStringified === true && typeof current === 'string';
    depth++
  ) {
    const inner = current.trim();
    if (!inner.startsWith('{') && !inner.startsWith('[')) break;
    const decoded = parseJsonLenient(inner, { preferArray: options.preferArray === true });
    if (!decoded.ok || typeof decoded.value !== 'object' || decoded.value === null) break;
    repairs.push('decoded JSON that was encoded as a string', ...decoded.repairs);
    current = decoded.value;
  }
  if (!measureJson(current, { maxDepth: MAX_JSON_DEPTH }).ok) return { ok: false, error: TOO_DEEP };
  return { ok: true, value: current, repaired: repairs.length > 0, repairs };
}

function strict(text: string): Parsed {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

function repaired(text: string): Parsed {
  try {
    const fixed = jsonrepair(text);
    return { ok: true, value: JSON.parse(fixed) as unknown };
  } catch {
    return { ok: false };
  }
}

function kindOf(value: unknown): JsonSpan['kind'] | undefined {
  if (Array.isArray(value)) return 'array';
  return typeof value === 'object' && value !== null ? 'object' : undefined;
}

function hasBracket(text: string): boolean {
  return text.includes('{') || text.includes('[');
}
