import { FinalSlotParser, type FinalSlotResult, type SlotEvent } from '../src/index.js';

export const NONCE = '1a2b3c4d';
export const OPEN = `<ai-agent-${NONCE}-FINAL tool="agent__final_report" status="success" format="json">`;
export const CLOSE = `</ai-agent-${NONCE}-FINAL>`;

/** Merges adjacent text events of one type, so event lists compare across chunkings. */
export function mergeEvents(events: readonly SlotEvent[]): SlotEvent[] {
  const merged: SlotEvent[] = [];
  for (const event of events) {
    const last = merged.at(-1);
    if (
      last !== undefined &&
      last.type === event.type &&
      (event.type === 'outside' || event.type === 'content' || event.type === 'think')
    ) {
      merged[merged.length - 1] = { type: event.type, text: (last as { text: string }).text + event.text };
    } else {
      merged.push({ ...event });
    }
  }
  return merged;
}

export interface Fed {
  events: SlotEvent[];
  result: FinalSlotResult;
}

/** Feeds `chunks` to a fresh parser; returns the merged events and the result. */
export function feed(chunks: readonly string[], nonce = NONCE): Fed {
  const parser = new FinalSlotParser({ nonce });
  const events: SlotEvent[] = [];
  for (const chunk of chunks) events.push(...parser.push(chunk));
  events.push(...parser.end());
  return { events: mergeEvents(events), result: parser.result };
}

/** Splits `text` at the given positions (any order, duplicates and out-of-range ignored). */
export function splitAt(text: string, cuts: readonly number[]): string[] {
  const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
  const chunks: string[] = [];
  let from = 0;
  for (const point of points) {
    chunks.push(text.slice(from, point));
    from = point;
  }
  chunks.push(text.slice(from));
  return chunks;
}

export function singles(text: string): string[] {
  return Array.from({ length: text.length }, (_, i) => text[i]!);
}

/** Every text event of one type, joined. */
export function joined(events: readonly SlotEvent[], type: 'outside' | 'content' | 'think'): string {
  return events.map((event) => (event.type === type ? event.text : '')).join('');
}
