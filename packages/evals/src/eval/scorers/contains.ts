import type { Scorer } from '../../types.js';
import {
  onlyKeys,
  optionalBoolean,
  optionalExpression,
  optionalString,
  type SpecFields,
  scorerName,
  selected,
  shown,
  verdict,
} from './spec-fields.js';

/** `contains`: the report's text (or what `path` selects) holds `value`, default the case's `expected`. */
export function containsScorer(spec: SpecFields): Scorer {
  onlyKeys(spec, ['path', 'value', 'ignoreCase']);
  const path = optionalExpression(spec, 'path');
  const fixed = optionalString(spec, 'value');
  const ignoreCase = optionalBoolean(spec, 'ignoreCase') ?? false;
  return {
    name: scorerName('contains', path),
    score({ case: evalCase, report }) {
      const needle = fixed ?? evalCase.expected;
      if (typeof needle !== 'string')
        return verdict(false, 'no text to look for: give value, or a string expected in the case');
      const actual = selected(path, report);
      const text = typeof actual === 'string' ? actual : (JSON.stringify(actual) ?? '');
      const found = ignoreCase ? text.toLowerCase().includes(needle.toLowerCase()) : text.includes(needle);
      return found ? verdict(true) : verdict(false, `${shown(needle)} not found in ${shown(text)}`);
    },
  };
}
