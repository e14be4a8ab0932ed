import { isWhitespaceCode } from './whitespace.js';

export const THINK_OPEN = '<think>';
export const THINK_CLOSE = '</think>';

/** A response split at its leading `<think>` block. */
export interface ThinkSplit {
  /** Whether the response starts (after optional whitespace) with `<think>`. */
  found: boolean;
  /** Whether that block was closed with `</think>`. False when `found` is false. */
  closed: boolean;
  /** The reasoning between the tags; '' when there is no leading block. */
  think: string;
  /**
   * What follows `</think>`, untouched; the whole text when there is no leading block;
   * '' when the block is never closed (everything after `<think>` is reasoning).
   */
  rest: string;
}

/**
 * Removes one leading `<think>...</think>` block (after optional whitespace, which is
 * dropped with it) and returns both parts. An unclosed leading block swallows the rest of
 * the text, so a tag written inside reasoning is never taken for the report.
 * `FinalSlotParser` applies the same rule while streaming.
 */
export function stripLeadingThink(text: string): ThinkSplit {
  let start = 0;
  while (start < text.length && isWhitespaceCode(text.charCodeAt(start))) start++;
  if (!text.startsWith(THINK_OPEN, start)) return { found: false, closed: false, think: '', rest: text };
  const bodyStart = start + THINK_OPEN.length;
  const end = text.indexOf(THINK_CLOSE, bodyStart);
  if (end === -1) return { found: true, closed: false, think: text.slice(bodyStart), rest: '' };
  return {
    found: true,
    closed: true,
    think: text.slice(bodyStart, end),
    rest: text.slice(end + THINK_CLOSE.length),
  };
}
