import { FinalSlotParser, type FinalSlotResult, type SlotEvent } from '@agent/xml-transport';
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
  ignored: string[];
  /** The whole text as the model wrote it. */
  fullText: string;
  /** Report content went out as `output` events while it streamed. */
  streamedContent: boolean;
  /** The parser's own result, for `judgeUnclosed`. */
  raw: FinalSlotResult;
}

/**
 * Feeds streamed text through the FINAL-slot parser: the report's body goes to `output`
 * events as it arrives (source `stream`), unless the tag declares `encoding="base64"` (the
 * decoded report then goes out at finalize); everything else is kept for fallbacks.
 */
export class SlotReader {
  private readonly parser: FinalSlotParser;
  private streamed = false;
  /** The opening tag declared `encoding="base64"`: the body is not text until decoded. */
  private encoded = false;

  constructor(
    nonce: string,
    private readonly recorder: SessionRecorder,
  ) {
    this.parser = new FinalSlotParser({ nonce });
  }

  push(text: string): void {
    this.handle(this.parser.push(text));
  }

  end(): SlotOutcome {
    this.handle(this.parser.end());
    const result = this.parser.result;
    // The parser keeps the text once; its payload and outside text are slices of it, so the
    // conversation's copy of the answer and the report share one string.
    const fullText = result.text;
    const common = {
      outsideText: result.outsideText,
      thinkText: result.think?.text ?? '',
      ignored: result.ignored.map((item) => `${item.tag}: ${item.reason}`),
      fullText,
      streamedContent: this.streamed,
      raw: result,
    };
    if (!result.found) return { found: false, closed: false, attributes: {}, payload: '', ...common };
    return {
      found: true,
      closed: result.closed,
      attributes: result.attributes,
      payload: result.payload,
      ...common,
    };
  }

  private handle(events: readonly SlotEvent[]): void {
    for (const event of events) {
      if (event.type === 'open') {
        this.encoded = event.attributes.encoding?.trim().toLowerCase() === 'base64';
      } else if (event.type === 'content' && event.text.length > 0 && !this.encoded) {
        this.streamed = true;
        this.recorder.emit({ type: 'output', text: event.text }, 'stream');
      } else if (event.type === 'think' && event.text.length > 0) {
        this.recorder.emit({ type: 'thinking', text: event.text }, 'stream');
      }
    }
  }
}
