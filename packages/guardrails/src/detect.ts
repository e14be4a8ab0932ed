import type { Guardrail, GuardrailVerdict } from '@agent/protocol';
import { redactSpans, type Span } from './spans.js';
import { mapSubject, subjectName, TOO_DEEP_REASON } from './subject.js';

/** What a detecting guardrail does with what it found. */
export type DetectAction = 'block' | 'redact' | 'deny';

/**
 * Most spans one text may hold before a `redact` gives up and blocks: each span is found in
 * time linear in the text, so the bound keeps a pathological pattern's whole search bounded.
 */
export const MAX_SPANS_PER_TEXT = 10_000;

/** Finds spans in one text, at most `limit` + 1 of them (one more says there were too many). */
export type SpanFinder = (text: string, limit: number) => Span[];

/**
 * The check of a detecting guardrail: runs `find` over each text of the subject and answers
 * `pass` when nothing was found, else `block`, `deny`, or (`redact`) a `rewrite` whose value
 * has each span replaced by `[REDACTED:<kind>]`. `describe` words what was found for the
 * reason: counts and kinds, never the text.
 */
export function detectingCheck(
  action: DetectAction,
  find: SpanFinder,
  describe: (found: readonly Span[]) => string,
): Guardrail['check'] {
  return (subject): GuardrailVerdict => {
    const found: Span[] = [];
    let tooMany = false;
    const mapped = mapSubject(subject, (text) => {
      const spans = find(text, MAX_SPANS_PER_TEXT);
      if (spans.length > MAX_SPANS_PER_TEXT) tooMany = true;
      for (const span of spans) found.push(span);
      return action === 'redact' && spans.length > 0 ? redactSpans(text, spans) : undefined;
    });
    const where = subjectName(subject);
    if ('tooDeep' in mapped) return { verdict: 'block', reason: `${where} is ${TOO_DEEP_REASON}` };
    if (found.length === 0) return { verdict: 'pass' };
    const reason = `${describe(found)} in ${where}`;
    if (action === 'block') return { verdict: 'block', reason };
    if (action === 'deny') return { verdict: 'deny', reason };
    if (tooMany)
      return {
        verdict: 'block',
        reason: `${reason}: more than ${MAX_SPANS_PER_TEXT} in one text, too many to redact`,
      };
    return { verdict: 'rewrite', value: mapped.value, reason: `redacted ${reason}` };
  };
}
