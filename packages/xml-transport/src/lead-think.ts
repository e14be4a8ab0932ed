import { THINK_OPEN } from './think.js';
import { isWhitespaceCode } from './whitespace.js';

const LT = 0x3c;

/** Outcome of watching the start of a response. */
export const LEAD_PENDING = 0;
export const LEAD_THINK = 1;
export const LEAD_NONE = 2;
export type LeadDecision = typeof LEAD_PENDING | typeof LEAD_THINK | typeof LEAD_NONE;

/**
 * Watches the start of a streamed response for `<think>` after optional whitespace (the
 * rule of `stripLeadingThink`). It holds back only that whitespace and the part of
 * `<think>` matched so far, until it can decide.
 */
export class LeadingThinkDetector {
  decision: LeadDecision = LEAD_PENDING;
  /** Whitespace held back; dropped with the think block, text otherwise. */
  whitespace = '';
  /** Characters of `<think>` matched so far (1 means a lone `<`). */
  matched = 0;

  /** Consumes from `s` at `i` until it decides or the chunk ends; returns where it stopped. */
  feed(s: string, i: number): number {
    const n = s.length;
    while (i < n) {
      const c = s.charCodeAt(i);
      if (this.matched === 0 && isWhitespaceCode(c)) {
        let j = i + 1;
        while (j < n && isWhitespaceCode(s.charCodeAt(j))) j++;
        this.whitespace += s.slice(i, j);
        i = j;
      } else if (c === (this.matched === 0 ? LT : THINK_OPEN.charCodeAt(this.matched))) {
        this.matched++;
        i++;
        if (this.matched === THINK_OPEN.length) {
          this.decision = LEAD_THINK;
          return i;
        }
      } else {
        // The character at i is not part of `<think>`: it is left for the caller.
        this.decision = LEAD_NONE;
        return i;
      }
    }
    return n;
  }

  /** What was held back, as text (at the end of input, or once the decision is LEAD_NONE). */
  held(): string {
    return this.whitespace + THINK_OPEN.slice(0, this.matched);
  }
}
