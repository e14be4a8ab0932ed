import { assertChunk, XmlTransportError } from './errors.js';
import { LEAD_NONE, LEAD_THINK, LeadingThinkDetector } from './lead-think.js';
import { assertNonce } from './nonce.js';
import { OpenTagScanner, SCAN_DONE, SCAN_MORE, TAG_PREFIX } from './open-tag.js';
import {
  CANDIDATE,
  CONTENT,
  CONTENT_START,
  DONE,
  LEAD,
  PLAIN_TEXT_OF,
  SCAN,
  THINK,
} from './parser-phases.js';
import type { FinalSlotParserOptions, FinalSlotResult, SlotEvent } from './slot-events.js';
import { NO_EVENTS, SlotRecorder, type TextType } from './slot-recorder.js';
import { slotResult } from './slot-result.js';
import { indexOfLt, startsPartially } from './starts-partially.js';
import { emptyContentReason, malformedReason, whyIgnored } from './tag-rules.js';
import { TextAccumulator } from './text-accumulator.js';
import { THINK_CLOSE, THINK_OPEN } from './think.js';
import { isWhitespaceCode } from './whitespace.js';

const LT = 0x3c;

/**
 * Streaming parser for the final report of one session: feed the model's text as it
 * arrives with `push`, call `end` once, then read `result`.
 *
 * Guarantees: the result, and the events once adjacent text events of one type are merged,
 * are the same for every way of splitting a text into chunks; each character is examined a
 * bounded number of times (at most one opening tag, `MAX_OPEN_TAG_LENGTH` characters, is
 * held back), so the cost is linear in the input.
 *
 * Memory: the input is kept once (`result.text`); the payload, the outside text and the
 * reasoning are slices of it located by offsets, not copies, so a 50 MB report costs about
 * 50 MB whichever of them a caller keeps.
 */
export class FinalSlotParser {
  readonly nonce: string;
  private readonly closeTag: string;
  private phase = LEAD;
  private ended = false;
  private finalResult: FinalSlotResult | undefined;

  private readonly rec: SlotRecorder;
  /** Every chunk, in order: the texts of the result are slices of it. */
  private readonly input = new TextAccumulator();
  /** Characters pushed before the current chunk: `consumed + i` is a position in the input. */
  private consumed = 0;
  // Positions in the input (see `buildResult`).
  private thinkBodyStart = 0;
  private thinkBodyEnd = 0;
  private tagStart = 0;
  private tagEnd = 0;
  private payloadStart = 0;
  private payloadEnd = 0;

  private readonly leadDetector = new LeadingThinkDetector();
  private thinkFound = false;
  private thinkClosed = false;

  /** Characters of `</think>` or of the closing tag matched so far (THINK, CONTENT_START, CONTENT). */
  private matched = 0;

  private readonly scanner = new OpenTagScanner();
  /** Text of the candidate tag from earlier chunks, and where it starts in the current chunk. */
  private carry = '';
  private candidateStart = 0;

  private openTag = '';
  private attributes: Readonly<Record<string, string>> = {};
  private contentWhitespace = '';
  private reportFound = false;
  private reportClosed = false;

  constructor(options: FinalSlotParserOptions) {
    assertNonce(options?.nonce);
    this.nonce = options.nonce;
    this.closeTag = `</ai-agent-${options.nonce}-FINAL>`;
    this.rec = new SlotRecorder(options.sink);
  }

  /** Feeds the next piece of text; returns what it completed (a shared empty array when nothing). */
  push(chunk: string): readonly SlotEvent[] {
    if (this.ended) {
      throw new XmlTransportError('parser_ended', 'push() after end(): create a new FinalSlotParser');
    }
    assertChunk(chunk);
    if (chunk.length === 0) return NO_EVENTS;
    this.input.add(chunk);
    // Fast path: a chunk that cannot start or end anything is plain text of the current phase.
    const type = PLAIN_TEXT_OF[this.phase];
    if (type !== undefined && this.matched === 0 && (this.phase === DONE || indexOfLt(chunk, 0) === -1)) {
      this.rec.text(type, chunk);
    } else {
      this.run(chunk);
    }
    this.consumed += chunk.length;
    return this.rec.take();
  }

  /** Ends the input: releases what was held back and settles the result. */
  end(): readonly SlotEvent[] {
    if (this.ended) throw new XmlTransportError('parser_ended', 'end() called twice');
    this.ended = true;
    this.flush();
    this.phase = DONE;
    const events = this.rec.take();
    this.finalResult = this.buildResult();
    return events;
  }

  /** The outcome; available after `end()`. */
  get result(): FinalSlotResult {
    if (this.finalResult === undefined) {
      throw new XmlTransportError('parser_not_ended', 'result is available after end()');
    }
    return this.finalResult;
  }

  private run(s: string): void {
    const n = s.length;
    let i = 0;
    this.candidateStart = 0;
    while (i < n) {
      switch (this.phase) {
        case DONE:
          this.rec.text('outside', i === 0 ? s : s.slice(i));
          i = n;
          break;
        case SCAN:
          i = this.scan(s, i);
          break;
        case CONTENT:
          i = this.content(s, i);
          break;
        case CANDIDATE:
          i = this.candidate(s, i);
          break;
        case CONTENT_START:
          i = this.contentStart(s, i);
          break;
        case THINK:
          i = this.untilClose(s, i, THINK_CLOSE, 'think');
          if (this.matched === THINK_CLOSE.length) {
            this.thinkBodyEnd = this.consumed + i - THINK_CLOSE.length;
            this.matched = 0;
            this.thinkClosed = true;
            this.phase = SCAN;
          }
          break;
        default:
          i = this.lead(s, i);
      }
    }
    if (this.phase === CANDIDATE) this.carry += s.slice(this.candidateStart);
  }

  /** LEAD: optional whitespace, then either `<think>` or the start of ordinary text. */
  private lead(s: string, i: number): number {
    const lead = this.leadDetector;
    i = lead.feed(s, i);
    if (lead.decision === LEAD_THINK) {
      this.thinkBodyStart = this.consumed + i;
      this.thinkFound = true;
      this.phase = THINK;
    } else if (lead.decision === LEAD_NONE) {
      this.phase = SCAN;
      this.rec.text('outside', lead.whitespace);
      if (lead.matched === 1) {
        // A lone `<` may still open a tag: continue it as a candidate.
        this.startCandidate(i);
        this.scanner.feed(LT);
        this.carry = '<';
      } else {
        // `<t...` can never start `<ai-agent-`: plain text.
        this.rec.text('outside', THINK_OPEN.slice(0, lead.matched));
      }
    }
    return i;
  }

  /** SCAN: plain text up to the next `<` that may begin `<ai-agent-` (other `<` are text). */
  private scan(s: string, i: number): number {
    const n = s.length;
    let at = indexOfLt(s, i);
    while (at !== -1 && !startsPartially(s, at, TAG_PREFIX)) at = indexOfLt(s, at + 1);
    if (at === -1) {
      this.rec.text('outside', i === 0 ? s : s.slice(i));
      return n;
    }
    if (at > i) this.rec.text('outside', s.slice(i, at));
    this.startCandidate(at);
    return at;
  }

  private startCandidate(at: number): void {
    this.scanner.reset();
    this.carry = '';
    this.candidateStart = at;
    this.phase = CANDIDATE;
  }

  private candidate(s: string, i: number): number {
    const n = s.length;
    const scanner = this.scanner;
    for (; i < n; i++) {
      const step = scanner.feed(s.charCodeAt(i));
      if (step === SCAN_MORE) continue;
      if (step === SCAN_DONE) {
        this.tagComplete(this.carry + s.slice(this.candidateStart, i + 1), this.consumed + i + 1);
        return i + 1;
      }
      // The character at i is not part of the tag: the candidate is plain text, and
      // scanning resumes at i (the candidate holds no other `<`).
      const raw = this.carry + s.slice(this.candidateStart, i);
      this.carry = '';
      this.phase = SCAN;
      this.rec.text('outside', raw);
      if (scanner.nameComplete) this.rec.ignore(raw, malformedReason(this.nonce, s[i], scanner.atLimit));
      return i;
    }
    return n;
  }

  /** `raw` is the tag as written; it ends at input position `end`. */
  private tagComplete(raw: string, end: number): void {
    this.carry = '';
    const tag = this.scanner.build(raw);
    const reason = whyIgnored(tag, this.nonce);
    if (reason !== undefined) {
      this.phase = SCAN;
      this.rec.text('outside', raw);
      this.rec.ignore(raw, reason);
      return;
    }
    this.tagStart = end - raw.length;
    this.tagEnd = end;
    this.openTag = raw;
    this.attributes = tag.attributes;
    this.contentWhitespace = '';
    this.matched = 0;
    this.phase = CONTENT_START;
  }

  /** CONTENT_START: the report opens only with non-whitespace content. */
  private contentStart(s: string, i: number): number {
    const n = s.length;
    const close = this.closeTag;
    while (i < n) {
      if (this.matched === 0) {
        let j = i;
        while (j < n && isWhitespaceCode(s.charCodeAt(j))) j++;
        if (j > i) this.contentWhitespace += s.slice(i, j);
        i = j;
        if (i === n) break;
        if (s.charCodeAt(i) !== LT) {
          this.beginContent('');
          return i;
        }
        this.matched = 1;
        i++;
      } else if (s.charCodeAt(i) === close.charCodeAt(this.matched)) {
        this.matched++;
        i++;
        if (this.matched === close.length) {
          this.emptyReport();
          return i;
        }
      } else {
        this.beginContent(close.slice(0, this.matched));
        return i;
      }
    }
    return n;
  }

  private beginContent(held: string): void {
    this.matched = 0;
    this.reportFound = true;
    // The payload starts right after the tag: the whitespace held so far belongs to it.
    this.payloadStart = this.tagEnd;
    this.phase = CONTENT;
    this.rec.event({ type: 'open', tag: this.openTag, attributes: this.attributes });
    this.rec.text('content', this.contentWhitespace + held);
    this.contentWhitespace = '';
  }

  private emptyReport(): void {
    const raw = this.openTag + this.contentWhitespace + this.closeTag.slice(0, this.matched);
    this.matched = 0;
    this.contentWhitespace = '';
    this.phase = SCAN;
    this.rec.text('outside', raw);
    this.rec.ignore(this.openTag, emptyContentReason(this.nonce));
  }

  private content(s: string, i: number): number {
    i = this.untilClose(s, i, this.closeTag, 'content');
    if (this.matched === this.closeTag.length) {
      this.payloadEnd = this.consumed + i - this.closeTag.length;
      this.matched = 0;
      this.reportClosed = true;
      this.phase = DONE;
      this.rec.event({ type: 'close' });
    }
    return i;
  }

  /**
   * Emits text as `type` until `close` (which starts with `<` and holds no other `<`)
   * completes; a partial match at the chunk end is held in `matched`. Returns where it
   * stopped; `matched === close.length` tells the caller the close tag was consumed.
   */
  private untilClose(s: string, i: number, close: string, type: TextType): number {
    const n = s.length;
    if (this.matched > 0) {
      // Continue the partial match carried over from the previous chunk.
      while (i < n && s.charCodeAt(i) === close.charCodeAt(this.matched)) {
        this.matched++;
        i++;
        if (this.matched === close.length) return i;
      }
      if (i === n) return n;
      // Not the close tag after all: what matched is text; the character at i is examined below.
      this.rec.text(type, close.slice(0, this.matched));
      this.matched = 0;
    }
    // One slice for the whole run of text up to the close tag (or a partial one at the end).
    for (let at = indexOfLt(s, i); at !== -1; at = indexOfLt(s, at + 1)) {
      if (!startsPartially(s, at, close)) continue;
      if (at > i) this.rec.text(type, s.slice(i, at));
      if (n - at >= close.length) {
        this.matched = close.length;
        return at + close.length;
      }
      this.matched = n - at;
      return n;
    }
    this.rec.text(type, i === 0 ? s : s.slice(i));
    return n;
  }

  /** At the end of the input: release whatever was held back for a decision. */
  private flush(): void {
    switch (this.phase) {
      case LEAD:
        this.rec.text('outside', this.leadDetector.held());
        break;
      case THINK:
        this.rec.text('think', THINK_CLOSE.slice(0, this.matched));
        break;
      case CANDIDATE:
        this.rec.text('outside', this.carry);
        if (this.scanner.nameComplete) {
          this.rec.ignore(this.carry, malformedReason(this.nonce, undefined, false));
        }
        break;
      case CONTENT_START:
        this.emptyReport();
        break;
      case CONTENT:
        this.rec.text('content', this.closeTag.slice(0, this.matched));
        break;
    }
    this.matched = 0;
    this.carry = '';
  }

  private buildResult(): FinalSlotResult {
    return slotResult({
      text: this.input.toString(),
      ignored: this.rec.ignored,
      think: this.thinkFound
        ? { bodyStart: this.thinkBodyStart, bodyEnd: this.thinkBodyEnd, closed: this.thinkClosed }
        : undefined,
      report: this.reportFound
        ? {
            tag: this.openTag,
            attributes: this.attributes,
            tagStart: this.tagStart,
            payloadStart: this.payloadStart,
            payloadEnd: this.payloadEnd,
            closed: this.reportClosed,
            closeTagLength: this.closeTag.length,
          }
        : undefined,
    });
  }
}
