import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ToolCallAssembler } from '../src/index.js';

describe('ToolCallAssembler', () => {
  it('assembles interleaved parallel calls by index, in the order they started', () => {
    const a = new ToolCallAssembler();
    a.add(1, 'call_b', 'b', '');
    a.add(0, 'call_a', 'a', '{"x"');
    a.add(1, undefined, undefined, '{"y":2}');
    a.add(0, undefined, undefined, ':1}');
    expect(a.finish()).toEqual([
      { id: 'call_b', name: 'b', arguments: { y: 2 }, rawArguments: '{"y":2}' },
      { id: 'call_a', name: 'a', arguments: { x: 1 }, rawArguments: '{"x":1}' },
    ]);
  });

  it('keys calls without an index by id (Mistral), and later empty ids or names change nothing', () => {
    const a = new ToolCallAssembler();
    a.add(undefined, 'm1', 'weather', '{"city":"Rome"}');
    a.add(undefined, 'm2', 'time', '{}');
    a.add(null, '', '', '');
    expect(a.finish().map((c) => [c.id, c.name, c.arguments])).toEqual([
      ['m1', 'weather', { city: 'Rome' }],
      ['m2', 'time', {}],
    ]);
  });

  it('starts a new call when a used index comes with a new id', () => {
    const a = new ToolCallAssembler();
    a.add(0, 'c1', 'one', '{}');
    a.add(0, 'c2', 'two', '{}');
    expect(a.finish().map((c) => c.id)).toEqual(['c1', 'c2']);
  });

  it('gives an id to a call that had none and drops a call without a name', () => {
    const a = new ToolCallAssembler();
    a.add(0, undefined, 'named', '{}');
    a.add(1, 'nameless', undefined, '{}');
    expect(a.finish()).toEqual([
      {
        id: expect.stringMatching(/^call_[A-Za-z0-9]{24}$/),
        name: 'named',
        arguments: {},
        rawArguments: '{}',
      },
    ]);
  });

  it('ids it gives are unique across calls and turns (a history never repeats one)', () => {
    const ids = new Set<string>();
    for (let turn = 0; turn < 50; turn++) {
      const a = new ToolCallAssembler();
      a.add(0, undefined, 'one', '{}');
      a.add(1, undefined, 'two', '{}');
      for (const call of a.finish()) ids.add(call.id);
    }
    expect(ids.size).toBe(100);
  });

  it('reassembles any arguments however the stream splits them (property)', () => {
    const args = fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 5 });
    fc.assert(
      fc.property(args, args, fc.array(fc.nat(12), { maxLength: 30 }), (first, second, cuts) => {
        const texts = [JSON.stringify(first), JSON.stringify(second)];
        const pieces = texts.map((text) => split(text, cuts));
        const a = new ToolCallAssembler();
        a.add(0, 'c0', 'f0', undefined);
        a.add(1, 'c1', 'f1', undefined);
        // Interleave the two calls' pieces.
        for (let i = 0; i < Math.max(pieces[0]!.length, pieces[1]!.length); i++) {
          for (const index of [0, 1]) {
            const piece = pieces[index]?.[i];
            if (piece !== undefined) a.add(index, undefined, undefined, piece);
          }
        }
        const calls = a.finish();
        expect(calls.map((c) => c.rawArguments)).toEqual(texts);
        expect(calls.map((c) => c.arguments)).toEqual([JSON.parse(texts[0]!), JSON.parse(texts[1]!)]);
      }),
    );
  });
});

function split(text: string, cuts: number[]): string[] {
  const pieces: string[] = [];
  let rest = text;
  for (const cut of cuts) {
    if (rest === '') break;
    pieces.push(rest.slice(0, cut + 1));
    rest = rest.slice(cut + 1);
  }
  if (rest !== '') pieces.push(rest);
  return pieces;
}
