import type { Guardrail, GuardrailVerdict } from '@agent/protocol';
import { redactSpans, type Span } from './spans.js';
import { mapSubject, subjectName, tooDeep } from './subject.js';

/** What a detecting guardrail does with what it found. */
export type DetectAction = 'block' | 'redact' | 'deny';

/** Most spans one text may hold before a `redact` gives up and blocks (bounds the memory). */
export const MAX_SPANS_PER_TEXT = 100_000;

/**
 * What a finder may spend. Each match is found in time linear in the text, but a pattern can
 * be written so that every match rescans the rest of the text (`a*b|a` over `aaaa...`), so
 * finders call `tick()` per match: it throws once the guardrail's time is up or the session
 * cancelled it (a check is synchronous: no timer could stop it).
 */
export interface ScanBudget {
  /** At most this many spans per text, plus one to say there were more. */
  limit: number;
  tick(): void;
}

/** Finds spans in one text within `budget`. */
export type SpanFinder = (text: string, budget: ScanBudget) => Span[];

/** A budget that ends at `timeoutMs` from now, or when `signal` aborts. */
export function scanBudget(name: string, timeoutMs: number, signal: AbortSignal): ScanBudget {
  const deadline = performance.now() + timeoutMs;
  let ticks = 0;
  return {
    limit: MAX_SPANS_PER_TEXT,
    tick() {
      // performance.now() costs far less than finding a match: every match is checked.
      ticks++;
      if (signal.aborted) throw new Error(`guardrail ${name} was cancelled while scanning`);
      if (performance.now() > deadline)
        throw new Error(
          `guardrail ${name} ran past its ${timeoutMs} ms while scanning (${ticks} matches so far): its pattern rescans the text for every match`,
        );
    },
  };
}

/**
 * The check of a detecting guardrail: runs `find` over each text of the subject and answers
 * `pass` when nothing was found, else `block`, `deny`, or (`redact`) a `rewrite` whose value
 * has each span replaced by `[REDACTED:<kind>]`. `describe` words what was found for the
 * reason: counts and kinds, never the text.
 */
export function detectingCheck(
  name: string,
  timeoutMs: number,
  action: DetectAction,
  find: SpanFinder,
  describe: (found: readonly Span[]) => string,
): Guardrail['check'] {
  return (subject, context): GuardrailVerdict => {
    const budget = scanBudget(name, timeoutMs, context.signal);
    const found: Span[] = [];
    let tooMany = false;
    const mapped = mapSubject(subject, (text) => {
      const spans = find(text, budget);
      if (spans.length > budget.limit) tooMany = true;
      for (const span of spans) found.push(span);
      return action === 'redact' && spans.length > 0 ? redactSpans(text, spans) : undefined;
    });
    const where = subjectName(subject);
    if ('tooDeep' in mapped) return tooDeep(where);
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
