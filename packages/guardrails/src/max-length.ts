import type { Guardrail, GuardrailSubject, GuardrailVerdict } from '@agent/protocol';
import { type BuiltinOptions, build, checkBase, configError, oneOf, resolvePhases } from './options.js';
import { subjectName } from './subject.js';

export type LengthUnit = 'characters';

export const LENGTH_UNITS: readonly LengthUnit[] = ['characters'];

export interface MaxLengthGuardrailOptions extends BuiltinOptions {
  /** The most characters allowed; more is a trip. */
  max: number;
  /** `characters`: Unicode code points (an emoji is one). */
  unit?: LengthUnit;
}

/**
 * A guardrail on length: blocks a prompt, report, tool result or tool call (its arguments as
 * JSON text) longer than `max` characters. Not at `stream`: a piece of the stream never says
 * how long the report is, so the report is measured whole before it is committed.
 */
export function maxLengthGuardrail(options: MaxLengthGuardrailOptions): Guardrail {
  const name = checkBase('max-length', options);
  const { max } = options;
  if (!Number.isSafeInteger(max) || max <= 0)
    throw configError(name, { field: 'max', value: max, allowed: 'a positive integer (characters)' });
  const unit = oneOf(name, 'unit', options.unit ?? 'characters', LENGTH_UNITS);
  const phases = resolvePhases(
    name,
    options,
    ['prompt', 'report', 'arguments', 'result'],
    'a piece of the stream never says how long the report is',
  );
  return build(name, options, phases, (subject): GuardrailVerdict => {
    const length = codePoints(measured(subject), max);
    return length <= max
      ? { verdict: 'pass' }
      : { verdict: 'block', reason: `${subjectName(subject)} is longer than ${max} ${unit}` };
  });
}

function measured(subject: GuardrailSubject): string {
  return subject.phase === 'arguments' ? JSON.stringify(subject.arguments) : subject.text;
}

/** Code points in `text`, counted up to just past `max` (a 1 MB text over a small max stops early). */
function codePoints(text: string, max: number): number {
  if (text.length <= max) return text.length;
  let count = 0;
  for (let i = 0; i < text.length && count <= max; i++) {
    const code = text.charCodeAt(i);
    // A high surrogate followed by a low one is one code point.
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    count++;
  }
  return count;
}
