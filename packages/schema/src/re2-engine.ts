import { createRequire } from 'node:module';
import { AgentError } from '@agent/protocol';
import { errorMessage } from '@agent/protocol/util';
import type { RegExpEngine, RegExpLike } from 'ajv/dist/types/index.js';
import { LRUCache } from 'lru-cache';
import type { RE2JS } from 're2js';
import { patternCost } from './pattern-cost.js';

/** `re2js` (its CommonJS build), loaded by the first pattern compiled. */
let re2js: typeof RE2JS | undefined;
function engine(): typeof RE2JS {
  re2js ??= (createRequire(import.meta.url)('re2js') as { RE2JS: typeof RE2JS }).RE2JS;
  return re2js;
}

/** Thrown (through Ajv's compile) for a `pattern` the linear-time engine cannot run. */
export class SchemaPatternError extends AgentError {
  override readonly name = 'SchemaPatternError';

  constructor(
    readonly pattern: string,
    readonly reason: string,
  ) {
    super('schema_pattern_unsupported', `pattern ${JSON.stringify(pattern)} ${reason}`);
  }
}

const UNSUPPORTED =
  'RE2 cannot run (schema patterns run on RE2, a linear-time engine without backtracking, so that no pattern can stall the server)';

/**
 * JavaScript regex syntax RE2 has no linear-time way to run. Found by a small scan (escapes
 * and character classes skipped) so the error names the construct instead of RE2's parser
 * message, and so `\k<name>` is never silently read as the literal text `k<name>`.
 */
function unsupportedConstruct(pattern: string): string | undefined {
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === '\\') {
      const next = pattern[i + 1] ?? '';
      if (!inClass && /[1-9]/.test(next)) return `a backreference (\\${next})`;
      if (!inClass && next === 'k' && pattern[i + 2] === '<') return 'a named backreference (\\k<...>)';
      i++;
      continue;
    }
    if (inClass) {
      if (ch === ']') inClass = false;
      continue;
    }
    if (ch === '[') inClass = true;
    else if (ch === '(' && pattern[i + 1] === '?') {
      const kind = pattern.slice(i + 2, i + 4);
      if (kind.startsWith('=')) return 'a lookahead (?=...)';
      if (kind.startsWith('!')) return 'a negative lookahead (?!...)';
      if (kind === '<=') return 'a lookbehind (?<=...)';
      if (kind === '<!') return 'a negative lookbehind (?<!...)';
    }
  }
  return undefined;
}

type CompiledPattern = { ok: true; regex: RE2JS } | { ok: false; reason: string };

/** What RE2 made of a pattern: its program, or the construct or parser message it refused. */
type Re2Program =
  | { ok: true; regex: RE2JS }
  | { ok: false; construct: string }
  | { ok: false; detail: string };

/**
 * Patterns compiled lately, bounded by their estimated RE2 instructions (about 3 MB): Ajv asks
 * for a pattern's regex at every place it appears, so a schema repeating one pattern 256 times
 * would otherwise compile it 256 times. Keyed by case mode and pattern.
 */
const recent = new LRUCache<string, Re2Program>({
  maxSize: 16_000,
  sizeCalculation: (_value, key) => patternCost(key.slice(2)),
});

/**
 * Compiles an ECMAScript `pattern` for RE2, or says what RE2 refused. Shared by schema
 * patterns and search patterns (`compileSearchPattern`).
 */
export function compileRe2(pattern: string, ignoreCase = false): Re2Program {
  const key = `${ignoreCase ? 'i' : '-'}:${pattern}`;
  const known = recent.get(key);
  if (known !== undefined) return known;
  const compiled = compileFresh(pattern, ignoreCase);
  recent.set(key, compiled);
  return compiled;
}

function compileFresh(pattern: string, ignoreCase: boolean): Re2Program {
  const construct = unsupportedConstruct(pattern);
  if (construct !== undefined) return { ok: false, construct };
  try {
    const RE2 = engine();
    return {
      ok: true,
      regex: RE2.compile(RE2.translateRegExp(pattern), ignoreCase ? RE2.CASE_INSENSITIVE : 0),
    };
  } catch (error) {
    return { ok: false, detail: errorMessage(error) };
  }
}

/** Compiles an ECMAScript `pattern` for RE2, or says why it cannot run there. */
export function compilePattern(pattern: string): CompiledPattern {
  const compiled = compileRe2(pattern);
  if (compiled.ok) return compiled;
  return {
    ok: false,
    reason:
      'construct' in compiled
        ? `uses ${compiled.construct}, which ${UNSUPPORTED}`
        : `is a regular expression ${UNSUPPORTED}: ${compiled.detail}`,
  };
}

/** Why `pattern` cannot be used in a schema, or undefined when it can. */
export function patternProblem(pattern: string): string | undefined {
  const compiled = compilePattern(pattern);
  return compiled.ok ? undefined : `pattern ${JSON.stringify(pattern)} ${compiled.reason}`;
}

function compiledOrThrow(pattern: string): RE2JS {
  const compiled = compilePattern(pattern);
  if (!compiled.ok) throw new SchemaPatternError(pattern, compiled.reason);
  return compiled.regex;
}

function re2(pattern: string, _unicode: string): RegExpLike {
  const regex = compiledOrThrow(pattern);
  const like: RegExpLike & { toString(): string } = {
    test: (text: string) => regex.test(text),
    // Ajv keys compiled patterns by `toString()`: it must differ per pattern.
    toString: () => `re2:${pattern}`,
  };
  return like;
}

/**
 * `re2RegExp` for generated validators (`@agent/schema/standalone`): their patterns were
 * compiled when the code was generated, so each is compiled again on its first test only, and
 * a validator whose data has no patterned value never loads RE2.
 */
export function re2RegExpOnFirstTest(pattern: string, _unicode: string): RegExpLike {
  let regex: RE2JS | undefined;
  return {
    test: (text: string) => {
      regex ??= compiledOrThrow(pattern);
      return regex.test(text);
    },
  };
}

/**
 * Ajv's `code.regExp` engine for `pattern` and `patternProperties`: RE2 (the `re2js` port,
 * pure JavaScript), which matches in time linear in the input, so `^(a+)+$` against a long
 * string answers at once. JSON Schema patterns are unanchored searches, as `test` is.
 */
export const re2RegExp: RegExpEngine = Object.assign(re2, { code: 're2js' });
