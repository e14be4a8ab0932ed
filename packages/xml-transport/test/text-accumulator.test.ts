import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TextAccumulator } from '../src/index.js';

const piece = fc.oneof(
  fc.string({ maxLength: 3 }),
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.string({ minLength: 9, maxLength: 300 }),
  fc.integer({ min: 60_000, max: 70_000 }).map((n) => 'L'.repeat(n)),
);

describe('TextAccumulator', () => {
  it('gives back exactly the concatenation, whatever the piece sizes, also when read midway', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 60 }), fc.nat(60), (pieces, readAt) => {
        const acc = new TextAccumulator();
        pieces.forEach((p, index) => {
          acc.add(p);
          if (index === readAt) expect(acc.toString()).toBe(pieces.slice(0, index + 1).join(''));
        });
        expect(acc.toString()).toBe(pieces.join(''));
        expect(acc.length).toBe(pieces.join('').length);
      }),
      { numRuns: 500 },
    );
  });

  it('stays exact over thousands of small pieces (the buffer grows, then fills and flushes)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: 'binary', maxLength: 8 }), { minLength: 500, maxLength: 3000 }),
        (pieces) => {
          const acc = new TextAccumulator();
          for (const p of pieces) acc.add(p);
          expect(acc.toString()).toBe(pieces.join(''));
        },
      ),
      { numRuns: 40 },
    );
  });

  it('keeps lone surrogates split across pieces intact', () => {
    const acc = new TextAccumulator();
    for (const p of ['a\uD83D', '\uDE00b', '\uD800', 'x'.repeat(20), '\uDC00']) acc.add(p);
    expect(acc.toString()).toBe(`a\uD83D\uDE00b\uD800${'x'.repeat(20)}\uDC00`);
  });
});
