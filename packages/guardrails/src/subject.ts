import type { GuardrailSubject } from '@agent/protocol';

/** Deepest nesting of arguments or a JSON report walked (deeper values cannot be checked). */
export const MAX_VALUE_DEPTH = 64;

/**
 * A rewrite of one text: the new text, or undefined to keep it. Called once per text the
 * subject holds (see `mapSubject`).
 */
export type TextMap = (text: string) => string | undefined;

/** What `mapSubject` made: the subject's new value (for a `rewrite`), or why it could not walk it. */
export type Mapped = { changed: boolean; value: unknown } | { tooDeep: true };

/**
 * Runs `map` over each text of the subject: the text itself, or, for tool arguments and JSON
 * reports, every string and number value inside (keys are names, not content). The value is
 * what a `rewrite` verdict carries at that phase: the prompt, stream, result text; the
 * arguments object; the report's content (its JSON value for a JSON report).
 */
export function mapSubject(subject: GuardrailSubject, map: TextMap): Mapped {
  if (subject.phase === 'arguments') return mapValue(subject.arguments, map, 0);
  if (subject.phase === 'report' && subject.report.content_json !== undefined)
    return mapValue(subject.report.content_json, map, 0);
  const rewritten = map(subject.text);
  return rewritten === undefined
    ? { changed: false, value: subject.text }
    : { changed: true, value: rewritten };
}

function mapValue(value: unknown, map: TextMap, depth: number): Mapped {
  if (typeof value === 'string' || typeof value === 'number') {
    const rewritten = map(String(value));
    return rewritten === undefined ? { changed: false, value } : { changed: true, value: rewritten };
  }
  if (typeof value !== 'object' || value === null) return { changed: false, value };
  if (depth >= MAX_VALUE_DEPTH) return { tooDeep: true };
  let changed = false;
  const entries: [string | number, unknown][] = [];
  for (const [key, item] of Array.isArray(value) ? value.entries() : Object.entries(value)) {
    const mapped = mapValue(item, map, depth + 1);
    if ('tooDeep' in mapped) return mapped;
    changed ||= mapped.changed;
    entries.push([key, mapped.value]);
  }
  if (!changed) return { changed, value };
  // fromEntries defines own properties: a `__proto__` key stays a key.
  const out = Array.isArray(value) ? entries.map(([, item]) => item) : Object.fromEntries(entries);
  return { changed, value: out };
}

/** What the subject is, for reasons: `the prompt`, `the report`, `the arguments of <tool>`. */
export function subjectName(subject: GuardrailSubject): string {
  switch (subject.phase) {
    case 'prompt':
      return 'the prompt';
    case 'stream':
    case 'report':
      return 'the report';
    case 'arguments':
      return `the arguments of ${subject.tool}`;
    case 'result':
      return `the result of ${subject.tool}`;
  }
}

export const TOO_DEEP_REASON = `nested deeper than ${MAX_VALUE_DEPTH} levels, so it cannot be checked`;
