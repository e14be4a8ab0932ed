import { describe, expect, it } from 'vitest';
import { FinalSlotParser, parseFinalSlot, XmlTransportError } from '../src/index.js';
import { CLOSE, feed, joined, NONCE, OPEN, singles } from './helpers.js';

const parse = (text: string) => parseFinalSlot(text, { nonce: NONCE });

describe('FinalSlotParser: what counts as the report', () => {
  it('takes the payload between this session’s FINAL tags, with attributes and outside text', () => {
    const text = `Here you go.\n${OPEN}{"a":1}${CLOSE}\nBye.`;
    const result = parse(text);
    expect(result).toEqual({
      text,
      found: true,
      closed: true,
      tag: OPEN,
      attributes: { tool: 'agent__final_report', status: 'success', format: 'json' },
      payload: '{"a":1}',
      outsideText: 'Here you go.\n\nBye.',
      ignored: [],
      think: undefined,
    });
  });

  it('ignores a tag with another nonce and says why', () => {
    const text = `<ai-agent-deadbeef-FINAL format="json">{"x":1}</ai-agent-deadbeef-FINAL>`;
    const result = parse(text);
    expect(result.found).toBe(false);
    expect(result.outsideText).toBe(text);
    expect(result.ignored).toEqual([
      {
        tag: '<ai-agent-deadbeef-FINAL format="json">',
        reason: expect.stringContaining('nonce "deadbeef" does not match'),
      },
    ]);
    expect(result.ignored[0]!.reason).toContain(`<ai-agent-${NONCE}-FINAL>`);
  });

  it('ignores another slot of this nonce and says why', () => {
    const result = parse(`<ai-agent-${NONCE}-PROGRESS>working</ai-agent-${NONCE}-PROGRESS>`);
    expect(result.found).toBe(false);
    expect(result.ignored).toHaveLength(1);
    expect(result.ignored[0]!.reason).toContain('unknown slot "PROGRESS"');
  });

  it('ignores a tag calling another tool through XML', () => {
    const result = parse(`<ai-agent-${NONCE}-FINAL tool="web_search">q</ai-agent-${NONCE}-FINAL>`);
    expect(result.found).toBe(false);
    expect(result.ignored[0]!.reason).toContain('tool "web_search" cannot be called through the tag');
  });

  it('accepts the short tool name final_report (seed 000) as the report', () => {
    const result = parse(`<ai-agent-${NONCE}-FINAL tool="final_report">done</ai-agent-${NONCE}-FINAL>`);
    expect(result).toMatchObject({ found: true, payload: 'done', attributes: { tool: 'final_report' } });
    expect(result.ignored).toEqual([]);
  });

  it('accepts a tag without attributes (as the full-chunked extractor writes it)', () => {
    const result = parse(`<ai-agent-${NONCE}-FINAL>done</ai-agent-${NONCE}-FINAL>`);
    expect(result).toMatchObject({ found: true, closed: true, payload: 'done', attributes: {} });
  });

  it('reads attributes in any order, with either quote style, unquoted or bare', () => {
    const variants = [
      `<ai-agent-${NONCE}-FINAL format="json" status='partial' tool="agent__final_report">`,
      `<ai-agent-${NONCE}-FINAL status='partial'   tool='agent__final_report'\n format="json" >`,
      `<ai-agent-${NONCE}-FINAL\ttool = "agent__final_report" format=json status=partial>`,
      `<ai-agent-${NONCE}-FINAL status="partial"format='json'tool="agent__final_report">`,
    ];
    for (const open of variants) {
      const result = parse(`${open}[1]${CLOSE}`);
      expect(result.found, open).toBe(true);
      if (!result.found) continue;
      expect(result.attributes).toEqual({ tool: 'agent__final_report', status: 'partial', format: 'json' });
      expect(result.payload).toBe('[1]');
    }
    const bare = parse(`<ai-agent-${NONCE}-FINAL draft format="a>b">x${CLOSE}`);
    expect(bare).toMatchObject({ found: true, attributes: { draft: '', format: 'a>b' }, payload: 'x' });
  });

  it('keeps the first of duplicated attributes', () => {
    const result = parse(`<ai-agent-${NONCE}-FINAL format="json" format="text">{}${CLOSE}`);
    expect(result).toMatchObject({ found: true, attributes: { format: 'json' } });
  });

  it('does not take empty or whitespace-only content as a report, and goes on looking', () => {
    expect(parse(`${OPEN}${CLOSE}`).found).toBe(false);
    const result = parse(`${OPEN} \n\t ${CLOSE} then ${OPEN}{"ok":true}${CLOSE}`);
    expect(result).toMatchObject({ found: true, payload: '{"ok":true}' });
    expect(result.outsideText).toBe(`${OPEN} \n\t ${CLOSE} then `);
    expect(result.ignored).toEqual([{ tag: OPEN, reason: expect.stringContaining('empty report') }]);
    const selfClosing = parse(`<ai-agent-${NONCE}-FINAL format="json"/>`);
    expect(selfClosing.found).toBe(false);
    expect(selfClosing.ignored[0]!.reason).toContain('self-closing');
  });

  it('keeps the first valid report; what follows is outside text', () => {
    const text = `a${OPEN}first${CLOSE}b${OPEN}second${CLOSE}c`;
    const result = parse(text);
    expect(result).toMatchObject({ found: true, closed: true, payload: 'first' });
    expect(result.outsideText).toBe(`ab${OPEN}second${CLOSE}c`);
  });

  it('keeps leading whitespace and inner tags of the payload as written', () => {
    const payload = `\n  <b>bold</b> </ai-agent-${NONCE}-FINALX> < ai`;
    const result = parse(`${OPEN}${payload}${CLOSE}`);
    expect(result).toMatchObject({ found: true, payload });
  });

  it('reports an unclosed report as found but not closed', () => {
    const result = parse(`${OPEN}{"a":`);
    expect(result).toMatchObject({ found: true, closed: false, payload: '{"a":' });
    const partialClose = parse(`${OPEN}body</ai-agent-${NONCE}-FIN`);
    expect(partialClose).toMatchObject({
      found: true,
      closed: false,
      payload: `body</ai-agent-${NONCE}-FIN`,
    });
  });

  it('treats a malformed or cut-off opening tag as text and says why', () => {
    const cut = parse(`text <ai-agent-${NONCE}-FINAL format="js`);
    expect(cut.found).toBe(false);
    expect(cut.outsideText).toBe(`text <ai-agent-${NONCE}-FINAL format="js`);
    expect(cut.ignored[0]!.reason).toContain('the response ended before ">"');
    const bad = parse(`<ai-agent-${NONCE}-FINAL format="json" ="x">{}${CLOSE}`);
    expect(bad.found).toBe(false);
    expect(bad.ignored[0]!.reason).toContain('unexpected "="');
    const long = parse(`<ai-agent-${NONCE}-FINAL a="${'x'.repeat(2000)}">{}${CLOSE}`);
    expect(long.found).toBe(false);
    expect(long.ignored[0]!.reason).toContain('longer than 1024 characters');
  });

  it('finds a tag that starts right where a failed candidate stopped', () => {
    const result = parse(`<ai-agent-x="<${OPEN.slice(1)}ok${CLOSE}`);
    expect(result).toMatchObject({ found: true, payload: 'ok' });
    expect(result.outsideText).toBe('<ai-agent-x="');
  });
});

describe('FinalSlotParser: leading <think>', () => {
  it('strips one leading think block and never takes a tag inside it', () => {
    const fake = `${OPEN}{"fake":true}${CLOSE}`;
    const text = `  \n<think>I could answer ${fake} but first...</think>\n${OPEN}{"real":true}${CLOSE}`;
    const result = parse(text);
    expect(result).toMatchObject({ found: true, payload: '{"real":true}', outsideText: '\n' });
    expect(result.think).toEqual({ text: `I could answer ${fake} but first...`, closed: true });
  });

  it('treats everything after an unclosed leading <think> as reasoning', () => {
    const result = parse(`<think>plan ${OPEN}{}${CLOSE}`);
    expect(result.found).toBe(false);
    expect(result.think).toEqual({ text: `plan ${OPEN}{}${CLOSE}`, closed: false });
    expect(result.outsideText).toBe('');
  });

  it('leaves a think block that is not leading in the text', () => {
    const result = parse(`hi <think>x</think>${OPEN}{}${CLOSE}`);
    expect(result).toMatchObject({ found: true, outsideText: 'hi <think>x</think>', think: undefined });
  });

  it('streams the reasoning as think events', () => {
    const { events } = feed(singles(`<think>abc</think>rest`));
    expect(events).toEqual([
      { type: 'think', text: 'abc' },
      { type: 'outside', text: 'rest' },
    ]);
  });
});

describe('FinalSlotParser: streaming', () => {
  it('finds the report with the tags split across chunk borders, one character at a time', () => {
    const text = `<think>r</think>pre ${OPEN}{"a":"<x>"}${CLOSE} post`;
    const whole = feed([text]);
    const split = feed(singles(text));
    expect(split).toEqual(whole);
    expect(split.events).toEqual([
      { type: 'think', text: 'r' },
      { type: 'outside', text: 'pre ' },
      {
        type: 'open',
        tag: OPEN,
        attributes: { tool: 'agent__final_report', status: 'success', format: 'json' },
      },
      { type: 'content', text: '{"a":"<x>"}' },
      { type: 'close' },
      { type: 'outside', text: ' post' },
    ]);
  });

  it('streams the content as it arrives, holding back only a possible closing tag', () => {
    const parser = new FinalSlotParser({ nonce: NONCE });
    expect(parser.push(`${OPEN}`)).toEqual([]);
    expect(parser.push('Hello')).toEqual([
      { type: 'open', tag: OPEN, attributes: expect.any(Object) },
      { type: 'content', text: 'Hello' },
    ]);
    expect(parser.push(' wor</ai-')).toEqual([{ type: 'content', text: ' wor' }]);
    expect(parser.push('x')).toEqual([{ type: 'content', text: '</ai-x' }]);
    expect(parser.push(`${CLOSE}!`)).toEqual([{ type: 'close' }, { type: 'outside', text: '!' }]);
    expect(parser.end()).toEqual([]);
    expect(parser.result).toMatchObject({ payload: 'Hello wor</ai-x', outsideText: '!' });
  });

  it('emits ignored tags as events in text order', () => {
    const { events } = feed([`a<ai-agent-00000000-FINAL>b`]);
    expect(events).toEqual([
      { type: 'outside', text: 'a<ai-agent-00000000-FINAL>' },
      { type: 'ignored', tag: '<ai-agent-00000000-FINAL>', reason: expect.stringContaining('nonce') },
      { type: 'outside', text: 'b' },
    ]);
    expect(joined(events, 'outside')).toBe('a<ai-agent-00000000-FINAL>b');
  });

  it('returns one shared empty array when a push completes nothing', () => {
    const parser = new FinalSlotParser({ nonce: NONCE });
    const first = parser.push('<');
    const second = parser.push('a');
    expect(first).toHaveLength(0);
    expect(first).toBe(second);
    expect(Object.isFrozen(first)).toBe(true);
  });

  it('refuses misuse with typed errors', () => {
    expect(() => new FinalSlotParser({ nonce: 'bad nonce' })).toThrow(XmlTransportError);
    const parser = new FinalSlotParser({ nonce: NONCE });
    expect(() => parser.result).toThrow(/after end\(\)/);
    parser.end();
    expect(() => parser.push('x')).toThrow(/push\(\) after end\(\)/);
    expect(() => parser.end()).toThrow(/end\(\) called twice/);
  });
});
