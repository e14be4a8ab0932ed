import type { IgnoredTag, SlotEvent } from './slot-events.js';

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

  /** Hands over the events of the current call (a shared frozen empty array when none). */
  take(): readonly SlotEvent[] {
    const events = this.out;
    this.out = undefined;
    this.lastText = undefined;
    return events ?? NO_EVENTS;
  }

  text(type: TextType, text: string): void {
    if (text.length === 0) return;
    const last = this.lastText;
    if (last !== undefined && last.type === type) {
      last.text += text;
      return;
    }
    const event: TextEvent = { type, text };
    this.push(event as SlotEvent);
    this.lastText = event;
  }

  event(event: SlotEvent): void {
    this.push(event);
    this.lastText = undefined;
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
