import { describe, expect, it } from 'vitest';
import { sseFrame } from '../src/sse-stream.js';

describe('sseFrame', () => {
  it('writes an event name, one data line per line of the data, and a blank line', () => {
    expect(sseFrame({ data: '{"a":1}' })).toBe('data: {"a":1}\n\n');
    expect(sseFrame({ event: 'result', data: 'one\r\ntwo\nthree' })).toBe(
      'event: result\ndata: one\ndata: two\ndata: three\n\n',
    );
  });

  it('refuses an event name with a line break', () => {
    expect(() => sseFrame({ event: 'a\nb', data: 'x' })).toThrow(/must not contain/);
  });
});
