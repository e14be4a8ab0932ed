import { describe, expect, test } from 'vitest';
import {
  abortableSleep,
  countNewlines,
  describeValue,
  errorMessage,
  finiteNumber,
  heuristicTokens,
  isPositiveInteger,
  isRecord,
  parseDurationMs,
  parseToolArguments,
  utf8PrefixLength,
} from '../src/util/index.js';

describe('@agent/protocol/util', () => {
  test('errorMessage and describeValue', () => {
    expect(errorMessage(new TypeError('boom'))).toBe('boom');
    expect(errorMessage('plain')).toBe('plain');
    expect(errorMessage(42)).toBe('42');
    expect(describeValue('x')).toBe('"x"');
    expect(describeValue([1])).toBe('a list of 1 item');
    expect(describeValue([])).toBe('an empty list');
    expect(describeValue(() => 1)).toBe('a function');
    expect(describeValue(false)).toBe('false');
  });

  test('guards', () => {
    expect(isRecord({})).toBe(true);
    expect(isRecord([])).toBe(false);
    expect(isRecord(null)).toBe(false);
    expect(isPositiveInteger(1)).toBe(true);
    expect(isPositiveInteger(0)).toBe(false);
    expect(isPositiveInteger(1.5)).toBe(false);
    expect(isPositiveInteger('2')).toBe(false);
    expect(finiteNumber(3)).toBe(3);
    expect(finiteNumber(Number.NaN)).toBeUndefined();
    expect(finiteNumber('3')).toBeUndefined();
  });

  test('heuristicTokens is about four characters a token', () => {
    expect(heuristicTokens('abcdefgh')).toBe(2);
    expect(heuristicTokens('')).toBe(0);
  });

  test('abortableSleep resolves, and rejects with the reason as soon as the signal aborts', async () => {
    await expect(abortableSleep(1)).resolves.toBeUndefined();
    const controller = new AbortController();
    const started = Date.now();
    const sleeping = abortableSleep(60_000, controller.signal);
    controller.abort(new Error('stop'));
    await expect(sleeping).rejects.toThrow('stop');
    expect(Date.now() - started).toBeLessThan(10_000);
    await expect(abortableSleep(0, controller.signal)).rejects.toThrow('stop');
  });
});

describe('parseDurationMs', () => {
  test('milliseconds as a number or a bare string, or a number with a unit', () => {
    expect(parseDurationMs(1500)).toBe(1500);
    expect(parseDurationMs('1500')).toBe(1500);
    expect(parseDurationMs('250ms')).toBe(250);
    expect(parseDurationMs('30s')).toBe(30_000);
    expect(parseDurationMs('5m')).toBe(300_000);
    expect(parseDurationMs('1.5h')).toBe(5_400_000);
    expect(parseDurationMs(' 2D ')).toBe(172_800_000);
    expect(parseDurationMs('1w')).toBe(604_800_000);
  });

  test('anything else is undefined', () => {
    for (const bad of [-1, 1.5, '1.5ms', '5 minutes', '5y', '-3s', '', 'off', null, true, {}]) {
      expect(parseDurationMs(bad)).toBeUndefined();
    }
  });
});

describe('parseToolArguments', () => {
  test.each([
    ['', {}, undefined],
    ['   ', {}, undefined],
    ['{"a":1,"b":[true]}', { a: 1, b: [true] }, undefined],
    ['[1,2]', {}, 'arguments must be a JSON object, got an array'],
    ['null', {}, 'arguments must be a JSON object, got null'],
    ['"text"', {}, 'arguments must be a JSON object, got a string'],
  ])('%j', (raw, args, error) => {
    const parsed = parseToolArguments(raw);
    expect(parsed.arguments).toEqual(args);
    expect(parsed.parseError).toBe(error);
  });

  test('says why invalid JSON is invalid', () => {
    expect(parseToolArguments('{"a": 1').parseError).toMatch(/^arguments are not valid JSON: .+/);
  });
});

describe('bytes', () => {
  const encode = (text: string) => new TextEncoder().encode(text);

  test('countNewlines counts newline bytes', () => {
    expect(countNewlines(encode('a\nb\n\nc'))).toBe(3);
    expect(countNewlines(encode(''))).toBe(0);
  });

  test('utf8PrefixLength never splits a character, wherever the bytes are cut', () => {
    const text = 'aé€😀b'.repeat(3);
    const bytes = encode(text);
    for (let cut = 0; cut <= bytes.length; cut++) {
      const piece = bytes.subarray(0, cut);
      const decoded = new TextDecoder('utf-8', { fatal: true }).decode(
        piece.subarray(0, utf8PrefixLength(piece)),
      );
      expect(text.startsWith(decoded)).toBe(true);
      expect(cut - utf8PrefixLength(piece)).toBeLessThan(4);
    }
    // Bytes that are not UTF-8 are kept as they are.
    expect(utf8PrefixLength(Uint8Array.of(0x80, 0x80, 0x80, 0x80))).toBe(4);
  });
});
