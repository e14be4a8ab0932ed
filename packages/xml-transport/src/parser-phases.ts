import type { TextType } from './slot-recorder.js';

// Phases, in the order a response goes through them.
export const LEAD = 0; // before the first non-whitespace character: is there a leading <think>?
export const THINK = 1; // inside the leading <think> block
export const SCAN = 2; // looking for an opening tag
export const CANDIDATE = 3; // inside something that may be an opening tag
export const CONTENT_START = 4; // after this session's opening tag, before any non-whitespace content
export const CONTENT = 5; // inside the report
export const DONE = 6; // the report is closed: the rest is outside text

/** The text type of a phase whose text is emitted as is until a `<` (undefined: held back). */
export const PLAIN_TEXT_OF: readonly (TextType | undefined)[] = [
  undefined,
  'think',
  'outside',
  undefined,
  undefined,
  'content',
  'outside',
];
