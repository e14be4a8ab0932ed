import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FinalSlotParser, parseFinalSlot } from '../src/index.js';
import { chunking, messyResponse, type Segment, wellFormedResponse } from './arbitraries.js';
import { type Fed, feed, joined, NONCE, singles, splitAt } from './helpers.js';

function chunked(text: string, cuts: readonly number[] | 'singles'): Fed {
  return feed(cuts === 'singles' ? singles(text) : splitAt(text, cuts));
}

/** The events agree with the result they lead to. */
function expectConsistent({ events, result }: Fed): void {
  expect(joined(events, 'outside')).toBe(result.outsideText);
  expect(joined(events, 'content')).toBe(result.found ? result.payload : '');
  expect(joined(events, 'think')).toBe(result.think?.text ?? '');
  expect(events.filter((e) => e.type === 'ignored')).toHaveLength(result.ignored.length);
  expect(events.filter((e) => e.type === 'open')).toHaveLength(result.found ? 1 : 0);
  expect(events.filter((e) => e.type === 'close')).toHaveLength(result.found && result.closed ? 1 : 0);
}

/** What a well-formed response must parse to, worked out from its segments. */
function oracle(response: {
  think: { lead: string; body: string; closed: boolean } | null;
  segments: Segment[];
}) {
  const text =
    (response.think
      ? `${response.think.lead}<think>${response.think.body}${response.think.closed ? '</think>' : ''}`
      : '') + response.segments.map((s) => s.text).join('');
  const think = response.think ? { text: response.think.body, closed: response.think.closed } : undefined;
  if (response.think && !response.think.closed) {
    const rest = response.segments.map((s) => s.text).join('');
    return {
      text,
      found: false,
      outside: '',
      ignoredTags: [],
      think: { text: response.think.body + rest, closed: false },
    };
  }
  let outside = '';
  const ignoredTags: string[] = [];
  let open: string | undefined;
  let content = '';
  for (let i = 0; i < response.segments.length; i++) {
    const seg = response.segments[i]!;
    if (open === undefined) {
      if (seg.kind === 'valid-open') {
        open = seg.text;
        content = '';
      } else {
        outside += seg.text;
        if (seg.kind === 'invalid-open') ignoredTags.push(seg.text);
      }
    } else if (seg.kind === 'close') {
      if (content.trim() !== '') {
        const rest = response.segments
          .slice(i + 1)
          .map((s) => s.text)
          .join('');
        return {
          text,
          found: true,
          closed: true,
          open,
          payload: content,
          outside: outside + rest,
          ignoredTags,
          think,
        };
      }
      outside += open + content + seg.text;
      ignoredTags.push(open);
      open = undefined;
    } else {
      content += seg.text;
    }
  }
  if (open !== undefined) {
    if (content.trim() !== '')
      return { text, found: true, closed: false, open, payload: content, outside, ignoredTags, think };
    outside += open + content;
    ignoredTags.push(open);
  }
  return { text, found: false, outside, ignoredTags, think };
}

describe('FinalSlotParser properties', () => {
  it('gives the same events and result for every chunking (10,000 messy responses)', () => {
    fc.assert(
      fc.property(messyResponse, chunking, (text, cuts) => {
        const whole = feed([text]);
        const split = chunked(text, cuts);
        expect(split).toEqual(whole);
        expect(split.result).toEqual(parseFinalSlot(text, { nonce: NONCE }));
        expect(split.result.text).toBe(text);
        expectConsistent(split);
      }),
      { numRuns: 10_000 },
    );
  });

  it('parses well-formed responses to what their segments say (10,000 cases)', () => {
    fc.assert(
      fc.property(wellFormedResponse, chunking, (response, cuts) => {
        const expected = oracle(response);
        const { result } = chunked(expected.text, cuts);
        expect(result.text).toBe(expected.text);
        expect(result.found).toBe(expected.found);
        expect(result.outsideText).toBe(expected.outside);
        expect(result.ignored.map((i) => i.tag)).toEqual(expected.ignoredTags);
        expect(result.think).toEqual(expected.think);
        if (result.found && expected.found) {
          expect(result.payload).toBe(expected.payload);
          expect(result.closed).toBe(expected.closed);
          expect(result.tag).toBe(expected.open);
        }
      }),
      { numRuns: 10_000 },
    );
  });

  it('never throws on arbitrary input, in any chunking, and stays chunking-invariant', () => {
    const anyText = fc.oneof(
      fc.string({ maxLength: 60 }),
      fc.string({ unit: 'binary', maxLength: 60 }),
      fc
        .array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 60 })
        .map((codes) => String.fromCharCode(...codes)),
    );
    fc.assert(
      fc.property(anyText, chunking, (text, cuts) => {
        const split = chunked(text, cuts);
        expect(split).toEqual(feed([text]));
        expectConsistent(split);
      }),
      { numRuns: 3_000 },
    );
  });

  it('never reads a pushed chunk twice: a long response in tiny chunks still parses', () => {
    const parser = new FinalSlotParser({ nonce: NONCE });
    const body = 'x<y '.repeat(50_000);
    for (const chunk of splitAt(`<think>t</think>a <ai-agent-${NONCE}-FINAL>${body}`, [3, 9, 17, 400_000])) {
      parser.push(chunk);
    }
    parser.end();
    expect(parser.result).toMatchObject({ found: true, closed: false, payload: body });
  });
});
