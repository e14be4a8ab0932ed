import { isDeepStrictEqual } from 'node:util';
import type { Scorer } from '../../types.js';
import {
  onlyKeys,
  optionalExpression,
  type SpecFields,
  scorerName,
  selected,
  shown,
  verdict,
} from './spec-fields.js';

/** `equals`: the report (or what `path` selects) deep-equals `value`, default the case's `expected`. */
export function equalsScorer(spec: SpecFields): Scorer {
  onlyKeys(spec, ['path', 'value']);
  const path = optionalExpression(spec, 'path');
  return {
    name: scorerName('equals', path),
    score({ case: evalCase, report }) {
      const expected = spec.value ?? evalCase.expected;
      const actual = selected(path, report);
      if (isDeepStrictEqual(actual, expected)) return verdict(true);
      return verdict(false, `expected ${shown(expected)}, got ${shown(actual)}`);
    },
  };
}
