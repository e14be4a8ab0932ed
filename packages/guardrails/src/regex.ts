import type { Guardrail, GuardrailVerdict } from '@agent/protocol';
import { compileSearchPattern, type SearchPattern } from '@agent/schema';
import { type DetectAction, detectingCheck } from './detect.js';
import { type BuiltinOptions, build, checkBase, configError, oneOf, resolvePhases } from './options.js';
import { mapSubject, subjectName, TOO_DEEP_REASON } from './subject.js';

export type RegexAction = DetectAction | 'require';

export const REGEX_ACTIONS: readonly RegexAction[] = ['block', 'redact', 'deny', 'require'];

export interface RegexGuardrailOptions extends BuiltinOptions {
  name: string;
  /**
   * A JavaScript-syntax regular expression, run on RE2 (linear time: no backreferences, no
   * lookaround). It matches anywhere in the text; `^` and `$` are the text's start and end.
   */
  pattern: string;
  /** `i` to ignore case; nothing else (RE2 runs every pattern in one linear pass). */
  flags?: string;
  /**
   * On a match: `block` (a trip), `redact` (each match becomes `[REDACTED:<name>]`), `deny`
   * (`tool` only: the call does not run, the model is told why); `require`: block when the
   * text does NOT match (not at `stream`, where the text is only a piece of the report).
   */
  action: RegexAction;
}

const FLAGS_ALLOWED = '`i` (ignore case) or nothing';

/**
 * A guardrail that matches a regular expression on RE2: a hostile pattern (`(a+)+$`) cannot
 * stall it, and a pattern RE2 cannot run (a backreference, a lookaround) or too large to
 * compile is a ConfigError saying so. Reasons name the guardrail, never the matched text.
 */
export function regexGuardrail(options: RegexGuardrailOptions): Guardrail {
  const name = checkBase('regex', options);
  if (typeof options.name !== 'string')
    throw configError(name, { field: 'name', value: options.name, allowed: 'a name for this guardrail' });
  const action = oneOf(name, 'action', options.action, REGEX_ACTIONS);
  const matcher = compile(name, options.pattern, options.flags);
  if (action === 'deny' && options.on !== 'tool')
    throw configError(name, { field: 'action', value: action, allowed: '`deny` only with `on: tool`' });
  const phases = resolvePhases(name, options, phasesFor(action), whyPhases(action));
  const check =
    action === 'require'
      ? requireCheck(name, matcher)
      : detectingCheck(
          action,
          (text, limit) => spans(matcher, text, limit, name),
          (found) => `${found.length} match${found.length === 1 ? '' : 'es'} of pattern ${name}`,
        );
  return build(name, options, phases, check);
}

function phasesFor(action: RegexAction) {
  if (action === 'deny') return ['arguments'] as const;
  if (action === 'require') return ['prompt', 'report', 'arguments', 'result'] as const;
  return ['prompt', 'stream', 'report', 'arguments', 'result'] as const;
}

function whyPhases(action: RegexAction): string | undefined {
  if (action === 'deny') return '`deny` stops a call before it runs';
  if (action === 'require') return '`require` needs the whole text, which `stream` never holds';
  return undefined;
}

function compile(name: string, pattern: unknown, flags: unknown): SearchPattern {
  if (typeof pattern !== 'string' || pattern.length === 0)
    throw configError(name, { field: 'pattern', value: pattern, allowed: 'a non-empty regular expression' });
  if (flags !== undefined && flags !== '' && flags !== 'i')
    throw configError(name, { field: 'flags', value: flags, allowed: FLAGS_ALLOWED });
  let matcher: SearchPattern;
  try {
    matcher = compileSearchPattern(pattern, { ignoreCase: flags === 'i' });
  } catch (error) {
    throw configError(name, {
      field: 'pattern',
      value: pattern,
      allowed: 'a regular expression RE2 can run',
      message: `pattern: ${(error as Error).message}`,
    });
  }
  if (matcher.test(''))
    throw configError(name, {
      field: 'pattern',
      value: pattern,
      allowed: 'a pattern that needs at least one character to match',
      message: `pattern ${JSON.stringify(pattern)} matches the empty text, so it would match every text: make it need at least one character`,
    });
  return matcher;
}

function spans(matcher: SearchPattern, text: string, limit: number, kind: string) {
  const found = [];
  for (const { start, end } of matcher.matches(text)) {
    found.push({ start, end, kind });
    if (found.length > limit) break;
  }
  return found;
}

/** `require`: the pattern must match somewhere in the subject's texts. */
function requireCheck(name: string, matcher: SearchPattern): Guardrail['check'] {
  return (subject): GuardrailVerdict => {
    let matched = false;
    const mapped = mapSubject(subject, (text) => {
      if (!matched && matcher.test(text)) matched = true;
      return undefined;
    });
    const where = subjectName(subject);
    if ('tooDeep' in mapped) return { verdict: 'block', reason: `${where} is ${TOO_DEEP_REASON}` };
    return matched
      ? { verdict: 'pass' }
      : { verdict: 'block', reason: `${where} does not match the required pattern of ${name}` };
  };
}
