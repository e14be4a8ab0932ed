import { checkWrapper } from '@agent/final-report';
import { type ExpectedOutput, type GuardrailTrip, TEXT_OUTPUT_FORMATS } from '@agent/protocol';
import {
  FinalSlotParser,
  type FinalSlotResult,
  type IgnoredTag,
  type SlotEvent,
  type SlotSink,
} from '@agent/xml-transport';
import type { StreamGuard } from '../guardrails/stream-guard.js';
import type { SessionRecorder } from '../observe/recorder.js';

/** What one answer's text held, as far as the final report is concerned. */
export interface SlotOutcome {
  found: boolean;
  closed: boolean;
  attributes: Record<string, string>;
  payload: string;
  /** Text outside the report (leading think block removed). */
  outsideText: string;
  /** A leading `<think>` block, sent to `thinking` events. */
  thinkText: string;
  /** Tags that looked like a report but were not ours, with why (to tell the model). */
  ignored: readonly IgnoredTag[];
  /** The whole text as the model wrote it. */
  fullText: string;
  /** Report content went out as `output` events while it streamed. */
  streamedContent: boolean;
  /** How many characters of report content went out as `output` events (what a retraction takes back). */
  streamedChars: number;
  /**
   * The outside text was held, not streamed (it may be the report): the answer's handler sends
   * it as `assistant_text` once it knows it is not.
   */
  outsideHeld: boolean;
  /** The parser's own result, for `judgeUnclosed`. */
  raw: FinalSlotResult;
  /** A stream guardrail held the rest of the report back (a rewrite): the report check decides. */
  streamHeld: boolean;
  /** A stream guardrail blocked the report as it streamed. */
  guardrail: GuardrailTrip | undefined;
}

/**
 * Feeds streamed text through the FINAL-slot parser. When the report's opening tag is there,
 * its wrapper is checked before any of the body goes out: a text format (markdown, text, ...)
 * with a valid status and raw encoding streams to `output` events as it arrives (source
 * `stream`); anything else (an invalid status, base64, `json`, `slack-block-kit`,
 * `sub-agent`) is held, and goes out only once committed (source `finalize`). Everything
 * else is kept for fallbacks. Text outside the report streams as `assistant_text`, unless
 * `holdOutside` (it may become the report). The parser hands each event to this reader as it
 * completes (its sink): no array nor event object per streamed chunk.
 */
export class SlotReader implements SlotSink {
  private readonly parser: FinalSlotParser;
  private live = false;
  private streamedChars = 0;
  /** Outside text that is only whitespace so far: sent before the next text, dropped at the end. */
  private pendingSpace = '';
  private readonly streamOutside: boolean;

  constructor(
    nonce: string,
    private readonly recorder: SessionRecorder,
    private readonly expected: ExpectedOutput,
    private readonly holdOutside: boolean,
    /** Set when the session has stream guardrails: report text goes out once they passed it. */
    private readonly guard?: StreamGuard,
  ) {
    this.streamOutside = !holdOutside && recorder.hasListener;
    this.parser = new FinalSlotParser({ nonce, sink: this });
  }

  push(text: string): void {
    this.parser.push(text);
  }

  end(): SlotOutcome {
    this.parser.end();
    const result = this.parser.result;
    // The parser keeps the text once; its payload and outside text are slices of it, so the
    // conversation's copy of the answer and the report share one string.
    // Built whole (same keys, same order): a spread after other keys copied the slow way, per answer.
    const streamedChars = this.guard === undefined ? this.streamedChars : this.guard.shown;
    return {
      found: result.found,
      closed: result.found && result.closed,
      attributes: result.found ? result.attributes : {},
      payload: result.found ? result.payload : '',
      outsideText: result.outsideText,
      thinkText: result.think?.text ?? '',
      ignored: result.ignored,
      fullText: result.text,
      streamedContent: streamedChars > 0,
      streamedChars,
      outsideHeld: this.holdOutside,
      raw: result,
      streamHeld: this.guard?.held === true,
      guardrail: this.guard?.trip,
    };
  }

  /** The answer broke off (model error, timeout, abort): what streamed will not be the report. */
  abandon(slug: string, reason: string): void {
    this.guard?.stop();
    retractStreamed(this.recorder, this.guard?.shown ?? this.streamedChars, slug, reason);
    this.streamedChars = 0;
    if (this.guard !== undefined) this.guard.shown = 0;
  }

  /** The parser's text, as it completes (`SlotSink`). */
  slotText(type: 'think' | 'outside' | 'content', text: string): void {
    if (type === 'content' && text.length > 0) {
      if (!this.live) return;
      if (this.guard !== undefined) return this.guard.add(text);
      this.streamedChars += text.length;
      this.recorder.emit({ type: 'output', text }, 'stream');
    } else if (type === 'think' && text.length > 0) {
      this.recorder.emit({ type: 'thinking', text }, 'stream');
    } else if (type === 'outside' && this.streamOutside) {
      this.sendOutside(text);
    }
  }

  /** Outside text as it completes; whitespace waits for text after it (none around the report tag). */
  private sendOutside(text: string): void {
    if (!NOT_SPACE.test(text)) {
      this.pendingSpace += text;
      return;
    }
    const whole = this.pendingSpace.length === 0 ? text : this.pendingSpace + text;
    this.pendingSpace = '';
    this.recorder.emit({ type: 'assistant_text', text: whole }, 'stream');
  }

  /** The parser's other events, as they complete (`SlotSink`): the report's opening tag decides. */
  slotEvent(event: Exclude<SlotEvent, { type: 'think' | 'outside' | 'content' }>): void {
    if (event.type === 'open') this.live = streamsLive(event.attributes, this.expected);
  }
}

const NOT_SPACE = /\S/;

/** Sends an answer's held outside text (not the report) whole; nothing when it is only whitespace. */
export function sendHeldOutside(recorder: SessionRecorder, slot: SlotOutcome): void {
  if (!slot.outsideHeld || !NOT_SPACE.test(slot.outsideText)) return;
  recorder.emit({ type: 'assistant_text', text: slot.outsideText.trimEnd() }, 'finalize');
}

/**
 * Whether a report's body may go out while it is written: only a text format whose wrapper
 * passes (status valid, raw encoding), since its content is the body as is. A structured one
 * is validated as a whole first, and base64 means nothing until decoded.
 */
function streamsLive(attributes: Readonly<Record<string, string>>, expected: ExpectedOutput): boolean {
  const wrapper = checkWrapper(attributes, expected);
  return wrapper.ok && wrapper.encoding === 'raw' && TEXT_OUTPUT_FORMATS.includes(wrapper.format);
}

/** Tells consumers that `characters` of streamed report text will not be the report. */
export function retractStreamed(
  recorder: SessionRecorder,
  characters: number,
  slug: string,
  reason: string,
): void {
  if (characters <= 0) return;
  recorder.emit({ type: 'output_retracted', characters, slug, reason });
  recorder.log({
    severity: 'VRB',
    direction: 'response',
    type: 'llm',
    remoteIdentifier: 'agent:final-report',
    message: `retracted ${characters} characters of streamed report (${slug}): ${reason}`,
  });
}
