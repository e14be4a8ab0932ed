import { describe, expect, it } from 'vitest';
import { JsonLineBuffer } from '../src/transports/json-line-buffer.js';

describe('JsonLineBuffer', () => {
  it('splits lines across chunks, strips CR, and keeps a partial line for later', () => {
    const buffer = new JsonLineBuffer(1024);
    expect(buffer.push(Buffer.from('{"a":1}\n{"b"'))).toEqual(['{"a":1}']);
    expect(buffer.push(Buffer.from(':2}\r\n\n{"c":3}'))).toEqual(['{"b":2}', '']);
    expect(buffer.push(Buffer.from('\n'))).toEqual(['{"c":3}']);
  });

  it('reassembles a multi-byte character split between chunks', () => {
    const bytes = Buffer.from('"héllo"\n');
    const buffer = new JsonLineBuffer(1024);
    expect(buffer.push(bytes.subarray(0, 3))).toEqual([]);
    expect(buffer.push(bytes.subarray(3))).toEqual(['"héllo"']);
  });

  it('refuses a line over the limit with the limit in the message', () => {
    const buffer = new JsonLineBuffer(8);
    expect(() => buffer.push(Buffer.from('0123456789'))).toThrow('exceeded the limit of 8 bytes');
    expect(buffer.push(Buffer.from('ok\n'))).toEqual(['ok']);
  });
});
