import { errorMessage } from '@agent/protocol/util';
import { compileSearchPattern, type SearchPattern } from '@agent/schema';
import type { Scorer } from '../../types.js';
import {
  onlyKeys,
  optionalBoolean,
  optionalExpression,
  requiredString,
  type SpecFields,
  SpecProblem,
  scorerName,
  selected,
  shown,
  verdict,
} from './spec-fields.js';

/**
 * `regex`: the report's text (or what `path` selects) matches `pattern`. Patterns come from a
 * dataset, so they run on RE2 (linear time, bounded program size), never `new RegExp`.
 */
export function regexScorer(spec: SpecFields): Scorer {
  onlyKeys(spec, ['path', 'pattern', 'ignoreCase']);
  const path = optionalExpression(spec, 'path');
  const source = requiredString(spec, 'pattern');
  let pattern: SearchPattern;
  try {
    pattern = compileSearchPattern(source, { ignoreCase: optionalBoolean(spec, 'ignoreCase') ?? false });
  } catch (error) {
    throw new SpecProblem(`pattern ${shown(source)} cannot be used: ${errorMessage(error)}`);
  }
  return {
    name: scorerName('regex', path),
    score({ report }) {
      const actual = selected(path, report);
      const text = typeof actual === 'string' ? actual : (JSON.stringify(actual) ?? '');
      return pattern.test(text) ? verdict(true) : verdict(false, `/${source}/ does not match ${shown(text)}`);
    },
  };
}
