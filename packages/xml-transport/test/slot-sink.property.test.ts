import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FinalSlotParser, type SlotEvent, type SlotSink } from '../src/index.js';
import { chunking, messyResponse } from './arbitraries.js';
import { NONCE, singles, splitAt } from './helpers.js';

/** The events of each call, as the arrays give them, or as a sink hears them within that call. */
function perCall(chunks: readonly string[], withSink: boolean): { calls: SlotEvent[][]; result: unknown } {
  const calls: SlotEvent[][] = [];
  let heard: SlotEvent[] = [];
  const sink: SlotSink = {
    slotText: (type, text) => heard.push({ type, text }),
    slotEvent: (event) => heard.push(event),
  };
  const parser = new FinalSlotParser(withSink ? { nonce: NONCE, sink } : { nonce: NONCE });
  const take = (returned: readonly SlotEvent[]) => {
    if (withSink) expect(returned).toHaveLength(0);
    calls.push(withSink ? heard : [...returned]);
    heard = [];
  };
  for (const chunk of chunks) take(parser.push(chunk));
  take(parser.end());
  return { calls, result: parser.result };
}

describe('FinalSlotParser with a sink', () => {
  it('hears, call by call, exactly the events the arrays hold, and ends with the same result', () => {
    fc.assert(
      fc.property(messyResponse, chunking, (text, cuts) => {
        const chunks = cuts === 'singles' ? singles(text) : splitAt(text, cuts);
        expect(perCall(chunks, true)).toEqual(perCall(chunks, false));
      }),
      { numRuns: 400 },
    );
  });
});
