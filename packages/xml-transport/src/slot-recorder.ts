import type { IgnoredTag, SlotEvent, SlotSink } from './slot-events.js';

export type TextType = 'outside' | 'content' | 'think';

interface TextEvent {
  type: TextType;
  text: string;
}

export const NO_EVENTS: readonly SlotEvent[] = Object.freeze([]);

/**
 * What the parser has said so far: the events of the current call (allocated only when
 * there is one; adjacent text of one type merged) and the ignored tags. The texts of the
 * result are not kept here: they are slices of the whole input (see `FinalSlotParser`).
 */
export class SlotRecorder {
  readonly ignored: IgnoredTag[] = [];
  private out: SlotEvent[] | undefined;
  private lastText: TextEvent | undefined;
  // With a sink: the text not handed over yet (merged while its type goes on), no event objects.
  private pendingType: TextType | undefined;
  private pendingText = '';

  constructor(private readonly sink?: SlotSink) {}

  /**
   * Hands over the events of the current call (a shared frozen empty array when none); with a
   * sink, gives it the text still pending and returns the empty array.
   */
  take(): readonly SlotEvent[] {
    if (this.sink !== undefined) {
      this.flushPending(this.sink);
      return NO_EVENTS;
    }
    const events = this.out;
    this.out = undefined;
    this.lastText = undefined;
    return events ?? NO_EVENTS;
  }

  text(type: TextType, text: string): void {
    if (text.length === 0) return;
    if (this.sink !== undefined) {
      if (this.pendingType === type) {
        this.pendingText += text;
        return;
      }
      this.flushPending(this.sink);
      this.pendingType = type;
      this.pendingText = text;
      return;
    }
    const last = this.lastText;
    if (last !== undefined && last.type === type) {
      last.text += text;
      return;
    }
    const event: TextEvent = { type, text };
    this.push(event as SlotEvent);
    this.lastText = event;
  }

  event(event: Exclude<SlotEvent, TextEvent>): void {
    if (this.sink !== undefined) {
      this.flushPending(this.sink);
      this.sink.slotEvent(event);
      return;
    }
    this.push(event);
    this.lastText = undefined;
  }

  private flushPending(sink: SlotSink): void {
    const type = this.pendingType;
    if (type === undefined) return;
    const text = this.pendingText;
    this.pendingType = undefined;
    this.pendingText = '';
    sink.slotText(type, text);
  }

  ignore(tag: string, reason: string): void {
    this.ignored.push({ tag, reason });
    this.event({ type: 'ignored', tag, reason });
  }

  private push(event: SlotEvent): void {
    if (this.out === undefined) this.out = [event];
    else this.out.push(event);
  }
}
