import { AgentError } from '@agent/protocol';
import fc from 'fast-check';
import { expect, test } from 'vitest';
import {
  CACHE_VALUE_ERROR_CODE,
  cacheKey,
  createCache,
  createMemoryBackend,
  formatTtl,
  MAX_TTL_MS,
  parseTtl,
  stableStringify,
} from '../src/index.js';

test('TTLs: off, milliseconds, or a duration with a unit', () => {
  expect(parseTtl('off')).toBe(0);
  expect(parseTtl(0)).toBe(0);
  expect(parseTtl(1500)).toBe(1500);
  expect(parseTtl('1500')).toBe(1500);
  expect(parseTtl('250ms')).toBe(250);
  expect(parseTtl('30s')).toBe(30_000);
  expect(parseTtl('5m')).toBe(300_000);
  expect(parseTtl('1h')).toBe(3_600_000);
  expect(parseTtl(' 1D ')).toBe(86_400_000);
  expect(parseTtl('1w')).toBe(604_800_000);
  expect(parseTtl('52w')).toBe(52 * 604_800_000);
  // A decimal count of a unit, as ai-agent's files write it.
  expect(parseTtl('1.5h')).toBe(5_400_000);
  // ai-agent's long units: a month is 30 days, a year 365 days (the longest TTL accepted).
  expect(parseTtl('1mo')).toBe(30 * 86_400_000);
  expect(parseTtl(' 6MO ')).toBe(180 * 86_400_000);
  expect(parseTtl('1y')).toBe(MAX_TTL_MS);
  expect(parseTtl('0.5y')).toBe(182.5 * 86_400_000);
  for (const bad of [
    '5 minutes',
    '1.5ms',
    '-1s',
    '',
    'on',
    -5,
    1.5,
    true,
    null,
    {},
    '53w',
    MAX_TTL_MS + 1,
    '13mo',
    '2y',
    '1.1y',
    'mo',
    '1yr',
  ]) {
    expect(() => parseTtl(bad, 'toolsCache.search')).toThrow(
      /^toolsCache\.search must be off, a number of milliseconds, or a duration such as 30s, 5m, 1h, 1d, 1w, 1mo, 1y \(at most a year\), got /,
    );
  }
  expect(() => parseTtl('5x')).toThrow(
    'cache must be off, a number of milliseconds, or a duration such as 30s, 5m, 1h, 1d, 1w, 1mo, 1y (at most a year), got "5x"',
  );
  expect([0, 1, 90_000, 3_600_000, 694_861_001].map(formatTtl)).toEqual([
    'off',
    '1ms',
    '1m30s',
    '1h',
    '1w1d1h1m1s1ms',
  ]);
});

test('the key serialisation ignores key order and keeps everything else', () => {
  expect(stableStringify({ b: 1, a: [{ d: 2, c: 'x' }, null], e: undefined })).toBe(
    '{"a":[{"c":"x","d":2},null],"b":1}',
  );
  expect(cacheKey({ prompt: 'p', model: 'm' })).toBe(cacheKey({ model: 'm', prompt: 'p' }));
  expect(cacheKey({ prompt: 'p', model: 'm' })).not.toBe(cacheKey({ prompt: 'p ', model: 'm' }));
  expect(cacheKey(['a', 'b'])).not.toBe(cacheKey(['b', 'a']));
  expect(cacheKey({ a: 1 })).toMatch(/^[0-9a-f]{64}$/);
  expect(stableStringify(new Date(0))).toBe('"1970-01-01T00:00:00.000Z"');
  const cycle: Record<string, unknown> = {};
  cycle.self = cycle;
  expect(() => stableStringify(cycle)).toThrow('cannot serialise a cycle for a cache key');
  expect(() => stableStringify({ f: () => 1 })).toThrow('cannot serialise a function for a cache key');
  expect(() => stableStringify(Number.NaN)).toThrow('cannot serialise NaN for a cache key');
  // Deep input is walked without recursion.
  let deep: unknown = 'leaf';
  for (let i = 0; i < 100_000; i++) deep = [deep];
  expect(stableStringify(deep)).toHaveLength(100_000 * 2 + 6);
});

test('a value a key or an entry cannot hold is an AgentError with code cache_value_unsupported', async () => {
  const thrown = (run: () => unknown): unknown => {
    try {
      run();
    } catch (error) {
      return error;
    }
    return undefined;
  };
  const keyError = thrown(() => cacheKey({ prompt: 'p', tool: () => 1 }));
  expect(AgentError.is(keyError, CACHE_VALUE_ERROR_CODE)).toBe(true);
  expect((keyError as Error).message).toBe('cannot serialise a function for a cache key');

  const cache = createCache(createMemoryBackend({ maxEntries: 2 }));
  const stored = cache.set('k', { count: 1n }, 60_000);
  await expect(stored).rejects.toSatisfy((error) => AgentError.is(error, CACHE_VALUE_ERROR_CODE));
  await expect(cache.set('k', undefined, 60_000)).rejects.toThrow('the value cannot be stored as JSON');
  // Too large is not thrown: the entry is skipped and the answer says why.
  const big = createCache(createMemoryBackend({ maxEntries: 2 }), { maxValueBytes: 10 });
  expect(await big.set('k', 'x'.repeat(20), 60_000)).toMatchObject({ stored: false, reason: 'too_large' });
});

test('for any JSON value: reads back as the same value, whatever order its keys were written in', () => {
  const reversed = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(reversed)
      : value !== null && typeof value === 'object'
        ? Object.fromEntries(
            Object.keys(value)
              .reverse()
              .map((key) => [key, reversed((value as Record<string, unknown>)[key])]),
          )
        : value;
  fc.assert(
    fc.property(fc.jsonValue(), (value) => {
      const text = stableStringify(value);
      expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
      expect(stableStringify(reversed(value))).toBe(text);
    }),
  );
});
