import type { Scorer } from '../../types.js';
import {
  onlyKeys,
  optionalExpression,
  optionalNumber,
  type SpecFields,
  scorerName,
  selected,
  shown,
  verdict,
} from './spec-fields.js';

/**
 * `numeric`: the number at `path` is within `tolerance` (absolute) or `relTolerance` (a share
 * of the expected value) of `value`, default the case's `expected`; exact without either.
 */
export function numericScorer(spec: SpecFields): Scorer {
  onlyKeys(spec, ['path', 'value', 'tolerance', 'relTolerance']);
  const path = optionalExpression(spec, 'path');
  const fixed = optionalNumber(spec, 'value');
  const tolerance = optionalNumber(spec, 'tolerance', 0) ?? 0;
  const relTolerance = optionalNumber(spec, 'relTolerance', 0) ?? 0;
  return {
    name: scorerName('numeric', path),
    score({ case: evalCase, report }) {
      const expected = fixed ?? evalCase.expected;
      if (typeof expected !== 'number')
        return verdict(false, 'no number to compare with: give value, or a number expected in the case');
      const actual = asNumber(selected(path, report));
      if (actual === undefined) return verdict(false, `${shown(selected(path, report))} is not a number`);
      const allowed = Math.max(tolerance, relTolerance * Math.abs(expected));
      const off = Math.abs(actual - expected);
      if (off <= allowed) return verdict(true);
      return verdict(false, `${actual} is ${off} from ${expected}; at most ${allowed} allowed`);
    },
  };
}

/** A number, or a string that is one (a text report of "42"). */
function asNumber(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const parsed = Number(value.trim());
  return Number.isFinite(parsed) ? parsed : undefined;
}
