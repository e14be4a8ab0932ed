import { AgentError } from '@agent/protocol';
import { DEFAULT_MAX_PATTERN_COST } from './limits.js';
import { patternCost } from './pattern-cost.js';
import { compileRe2 } from './re2-engine.js';

/**
 * What a search pattern may use, for the model that wrote one RE2 refused: the Grep tools
 * pass this on as the error, so the next try can be right.
 */
const ALLOWED =
  'search patterns run on RE2, a linear-time engine (no backtracking, so no pattern can stall the process): JavaScript regular expression syntax is accepted (classes, \\d \\w \\s \\b, groups and named groups, alternation, quantifiers, ^ and $ at the start and end of each line) except backreferences (\\1, \\k<name>) and lookaround ((?=, (?!, (?<=, (?<!)';

/** Thrown by `compileSearchPattern` for a pattern that cannot run; the message says what is allowed. */
export class SearchPatternError extends AgentError {
  override readonly name = 'SearchPatternError';

  constructor(
    readonly pattern: string,
    message: string,
  ) {
    super('search_pattern_unsupported', message);
  }
}

export interface SearchPatternOptions {
  ignoreCase?: boolean;
  /** Largest estimated RE2 program (`patternCost`); default `DEFAULT_MAX_PATTERN_COST`. */
  maxCost?: number;
}

/** A compiled search pattern. Each call takes time linear in the line's length. */
export interface SearchPattern {
  readonly source: string;
  /** True when `line` holds a match (unanchored; `^`/`$` are the line's start and end). */
  test(line: string): boolean;
  /** Where the first match in `line` starts (a UTF-16 index), or -1. */
  search(line: string): number;
  /**
   * The matches in `text` from left to right, as `[start, end)` UTF-16 indices (empty matches
   * skipped). Each match is found in time linear in the text; stop early for a bound on the whole.
   */
  matches(text: string): Generator<{ start: number; end: number }>;
}

const number = (n: number) => n.toLocaleString('en-US');

/**
 * Compiles a search pattern written by a user or a model (hostile input) for matching one
 * line at a time, on RE2: `^(a+)+$` against a long line answers at once. Throws a
 * `SearchPatternError` naming what was wrong and what is allowed.
 */
export function compileSearchPattern(pattern: string, options: SearchPatternOptions = {}): SearchPattern {
  const quoted = JSON.stringify(pattern.length <= 200 ? pattern : `${pattern.slice(0, 200)}…`);
  const maxCost = options.maxCost ?? DEFAULT_MAX_PATTERN_COST;
  // Estimated from the text before RE2 compiles anything: a refusal costs no compile.
  const cost = patternCost(pattern);
  if (cost > maxCost) {
    throw new SearchPatternError(
      pattern,
      `pattern ${quoted} would compile to about ${number(cost)} RE2 instructions, more than the limit of ${number(maxCost)} (a counted repeat x{n,m} costs m copies of x, and nested repeats multiply): use a shorter pattern or smaller counts`,
    );
  }
  const compiled = compileRe2(pattern, options.ignoreCase === true);
  if (!compiled.ok) {
    const what =
      'construct' in compiled
        ? `uses ${compiled.construct}, which RE2 cannot run`
        : `is not a regular expression RE2 can run (${compiled.detail})`;
    throw new SearchPatternError(pattern, `pattern ${quoted} ${what}; ${ALLOWED}.`);
  }
  const { regex } = compiled;
  return {
    source: pattern,
    test: (line) => regex.test(line),
    search: (line) => {
      const matcher = regex.matcher(line);
      return matcher.find() ? matcher.start() : -1;
    },
    *matches(text) {
      const matcher = regex.matcher(text);
      while (matcher.find()) {
        const start = matcher.start();
        const end = matcher.end();
        if (end > start) yield { start, end };
      }
    },
  };
}
