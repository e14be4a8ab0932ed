import type { FinalSlotResult } from './slot-events.js';
import { THINK_CLOSE } from './think.js';

/** Where the parser found things in the input; unclosed blocks run to its end. */
export interface SlotPositions {
  /** The whole input. */
  text: string;
  ignored: FinalSlotResult['ignored'];
  /** A leading think block: its body is `[bodyStart, bodyEnd)`. */
  think: { bodyStart: number; bodyEnd: number; closed: boolean } | undefined;
  /** The report: its opening tag starts at `tagStart`, its payload is `[payloadStart, payloadEnd)`. */
  report:
    | {
        tag: string;
        attributes: Readonly<Record<string, string>>;
        tagStart: number;
        payloadStart: number;
        payloadEnd: number;
        closed: boolean;
        closeTagLength: number;
      }
    | undefined;
}

/**
 * The texts as slices of the input (a slice shares the input's memory): a leading think
 * block (and the whitespace before it) is `[0, afterThink)`; the report runs from its opening
 * tag to the end of its closing tag; everything else is outside text.
 */
export function slotResult(at: SlotPositions): FinalSlotResult {
  const { text, think, report } = at;
  const end = text.length;
  const thinkEnd = think?.closed ? think.bodyEnd : end;
  const afterThink = think === undefined ? 0 : think.closed ? thinkEnd + THINK_CLOSE.length : end;
  const common = {
    text,
    ignored: at.ignored,
    think:
      think === undefined ? undefined : { text: text.slice(think.bodyStart, thinkEnd), closed: think.closed },
  };
  if (report === undefined) return { found: false, outsideText: text.slice(afterThink), ...common };
  const payloadEnd = report.closed ? report.payloadEnd : end;
  const before = text.slice(afterThink, report.tagStart);
  const closeEnd = payloadEnd + report.closeTagLength;
  return {
    found: true,
    closed: report.closed,
    tag: report.tag,
    attributes: report.attributes,
    payload: text.slice(report.payloadStart, payloadEnd),
    outsideText: report.closed && closeEnd < end ? before + text.slice(closeEnd) : before,
    ...common,
  };
}
