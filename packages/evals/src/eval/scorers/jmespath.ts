import { isDeepStrictEqual } from 'node:util';
import { isJmesPathTruthy } from '@agent/schema';
import type { Scorer } from '../../types.js';
import { onlyKeys, optionalExpression, type SpecFields, SpecProblem, shown, verdict } from './spec-fields.js';

/**
 * `jmespath`: `expression` over the report equals `value` (default the case's `expected`);
 * with neither, the result must be JMESPath-true (not false, null or empty).
 */
export function jmespathScorer(spec: SpecFields): Scorer {
  onlyKeys(spec, ['expression', 'value']);
  const expression = optionalExpression(spec, 'expression');
  if (expression === undefined) throw new SpecProblem('jmespath needs expression (a JMESPath expression)');
  return {
    name: `jmespath(${expression.source})`,
    score({ case: evalCase, report }) {
      const result = report === undefined ? null : expression.search(report);
      const expected = spec.value ?? evalCase.expected;
      if (expected === undefined)
        return isJmesPathTruthy(result) ? verdict(true) : verdict(false, `${shown(result)} is not true`);
      if (isDeepStrictEqual(result, expected)) return verdict(true);
      return verdict(false, `expected ${shown(expected)}, got ${shown(result)}`);
    },
  };
}
