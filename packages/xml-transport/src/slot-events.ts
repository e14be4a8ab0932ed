/** A tag that looked like an XML-transport tag but does not carry this session's report. */
export interface IgnoredTag {
  /** The opening tag as written (up to where it stopped being a valid tag). */
  tag: string;
  /** Why it was ignored, worded so it can be shown to the model. */
  reason: string;
}

/** What the streaming parser reports, in text order. */
export type SlotEvent =
  /** Reasoning from a leading `<think>` block (the tags themselves are not included). */
  | { type: 'think'; text: string }
  /** Text outside the report (ignored tags included). */
  | { type: 'outside'; text: string }
  /** The report's opening tag; sent when its first non-whitespace content arrives. */
  | { type: 'open'; tag: string; attributes: Readonly<Record<string, string>> }
  /** A piece of the report's body, as it arrives. */
  | { type: 'content'; text: string }
  /** The report's closing tag. */
  | { type: 'close' }
  /** A tag that was not taken (wrong nonce, other slot, empty, malformed, ...). */
  | { type: 'ignored'; tag: string; reason: string };

/** A leading `<think>` block. */
export interface LeadingThink {
  text: string;
  closed: boolean;
}

interface SlotResultBase {
  /** The whole input, as pushed. The other texts are slices of it (they share its memory). */
  text: string;
  /** Everything that is neither the report nor leading reasoning, in order. */
  outsideText: string;
  /** Tags that were not taken, with reasons a caller can show the model. */
  ignored: IgnoredTag[];
  /** The leading `<think>` block, if the response started with one. */
  think: LeadingThink | undefined;
}

export interface SlotNotFound extends SlotResultBase {
  found: false;
}

export interface SlotFound extends SlotResultBase {
  found: true;
  /** False when the response ended inside the report (see `judgeUnclosed`). */
  closed: boolean;
  /** The opening tag as written. */
  tag: string;
  /** Attributes of the opening tag, as written (e.g. `tool`, `status`, `format`). */
  attributes: Readonly<Record<string, string>>;
  /** The raw body between the tags (never empty or whitespace-only). */
  payload: string;
}

export type FinalSlotResult = SlotNotFound | SlotFound;

/**
 * Takes a parser's events as they complete, instead of an array per call (see
 * `FinalSlotParserOptions.sink`): text as its type and text, merged as in the arrays, the other
 * events as they are.
 */
export interface SlotSink {
  slotText(type: 'think' | 'outside' | 'content', text: string): void;
  slotEvent(event: Exclude<SlotEvent, { type: 'think' | 'outside' | 'content' }>): void;
}

/** What a `FinalSlotParser` is made with. */
export interface FinalSlotParserOptions {
  /** This session's nonce (`createNonce()`); only `<ai-agent-<nonce>-FINAL>` counts. */
  nonce: string;
  /**
   * Takes the events as they complete: `push` and `end` then return the shared empty array.
   * For a consumer that acts on each event at once (no array nor event object per chunk).
   */
  sink?: SlotSink;
}
