import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import {
  type CacheBackend,
  createCache,
  createMemoryBackend,
  openRedisBackend,
  openSqliteBackend,
} from '../src/index.js';
import { fakeClock, sharedCluster, sharedRedis, tempDir } from './helpers.js';

let prefixes = 0;

/** Each backend, fresh for one test: the same behaviour is asked of all (Redis on one server and on a cluster). */
const backends: [string, string, (maxEntries: number) => Promise<CacheBackend>][] = [
  ['memory', 'in memory', async (maxEntries) => createMemoryBackend({ maxEntries })],
  [
    'sqlite',
    'a file',
    (maxEntries) => openSqliteBackend({ path: join(tempDir(), 'cache.sqlite'), maxEntries }),
  ],
  [
    'redis',
    'one server',
    async (maxEntries) =>
      openRedisBackend({ url: (await sharedRedis()).url, maxEntries, prefix: `test${prefixes++}:` }),
  ],
  [
    'redis',
    'a cluster',
    async (maxEntries) =>
      openRedisBackend({ url: (await sharedCluster()).url, maxEntries, prefix: `test${prefixes++}:` }),
  ],
];

describe.each(backends)('the %s backend on %s', (name, _where, open) => {
  test('stores a JSON value and gives it back, with its age, until the TTL runs out', async () => {
    const clock = fakeClock();
    const backend = await open(10);
    const cache = createCache(backend, { now: clock.now });
    try {
      expect(backend.name).toBe(name);
      const report = { status: 'success', content: 'The answer is 42.', tags: ['a', 'b'], n: 1.5 };
      expect(await cache.set('k1', report, 60_000)).toEqual({ stored: true });
      expect(await cache.get('missing')).toBeUndefined();
      clock.advance(59_999);
      expect(await cache.get('k1')).toMatchObject({ value: report, ageMs: 59_999, expiresInMs: 1 });
      clock.advance(1);
      expect(await cache.get('k1')).toBeUndefined();
      // The expired entry was dropped, not just hidden.
      expect(await cache.size()).toBe(0);
    } finally {
      await cache.close();
    }
  });

  test('keeps at most maxEntries, dropping the least recently used first', async () => {
    const clock = fakeClock();
    const cache = createCache(await open(3), { now: clock.now });
    try {
      for (const key of ['a', 'b', 'c']) await cache.set(key, key.toUpperCase(), 60_000);
      expect((await cache.get('a'))?.value).toBe('A'); // a is now the most recent
      await cache.set('d', 'D', 60_000);
      expect(await cache.size()).toBe(3);
      expect(await cache.get('b')).toBeUndefined();
      expect((await cache.get('a'))?.value).toBe('A');
      expect((await cache.get('c'))?.value).toBe('C');
      expect((await cache.get('d'))?.value).toBe('D');
      // Writing a key again replaces it: the count does not grow.
      await cache.set('d', 'D2', 60_000);
      expect(await cache.size()).toBe(3);
      expect((await cache.get('d'))?.value).toBe('D2');
    } finally {
      await cache.close();
    }
  });

  test('expired entries make room before live ones are evicted', async () => {
    const clock = fakeClock();
    const cache = createCache(await open(2), { now: clock.now });
    try {
      await cache.set('short', 1, 1_000);
      await cache.set('long', 2, 60_000);
      clock.advance(5_000);
      await cache.set('new', 3, 60_000);
      expect((await cache.get('long'))?.value).toBe(2);
      expect((await cache.get('new'))?.value).toBe(3);
    } finally {
      await cache.close();
    }
  });

  test('values are compressed and bounded; delete and clear drop entries', async () => {
    const cache = createCache(await open(10), { maxValueBytes: 10_000 });
    try {
      const big = 'the same line again\n'.repeat(400); // 8,000 bytes of JSON, very compressible
      expect(await cache.set('big', big, 60_000)).toEqual({ stored: true });
      expect((await cache.get('big'))?.value).toBe(big);
      const tooBig = 'x'.repeat(10_001);
      expect(await cache.set('too-big', tooBig, 60_000)).toEqual({
        stored: false,
        reason: 'too_large',
        detail: 'the value is 10003 bytes as JSON, over the limit of 10000',
      });
      expect(await cache.get('too-big')).toBeUndefined();
      expect(await cache.set('off', 1, 0)).toMatchObject({ stored: false, reason: 'ttl_off' });
      expect(await cache.delete('big')).toBe(true);
      expect(await cache.delete('big')).toBe(false);
      await cache.set('one', 1, 60_000);
      await cache.set('two', 2, 60_000);
      await cache.clear();
      expect(await cache.size()).toBe(0);
      expect(await cache.get('one')).toBeUndefined();
    } finally {
      await cache.close();
    }
  });

  test('stored bytes that are not a value of this format, or inflate past the bound, are a miss and are dropped', async () => {
    const clock = fakeClock();
    const backend = await open(10);
    const small = createCache(backend, { now: clock.now, maxValueBytes: 1_000 });
    const large = createCache(backend, { now: clock.now, maxValueBytes: 1_000_000 });
    try {
      const at = clock.now();
      await backend.set(
        'garbage',
        { value: Buffer.from('not brotli'), storedAt: at, expiresAt: at + 60_000 },
        at,
      );
      expect(await small.get('garbage')).toBeUndefined();
      expect(await backend.get('garbage', at)).toBeUndefined();
      // 100 KB of zeros compress to a few bytes; a reader bounded at 1,000 bytes refuses them.
      await large.set('bomb', '0'.repeat(100_000), 60_000);
      expect(await small.get('bomb')).toBeUndefined();
      expect(await large.get('bomb')).toBeUndefined();
    } finally {
      await small.close();
    }
  });
});

test('a namespace keeps two caches on one backend apart; keys are checked', async () => {
  const backend = createMemoryBackend({ maxEntries: 10 });
  const responses = createCache(backend, { namespace: 'response:' });
  const tools = createCache(backend, { namespace: 'tool:' });
  await responses.set('k', 'a report', 60_000);
  expect(await tools.get('k')).toBeUndefined();
  expect((await responses.get('k'))?.value).toBe('a report');
  await expect(responses.get('')).rejects.toThrow(
    'cache: key must be a string of 1 to 512 characters (cacheKey makes one), got ""',
  );
  expect(() => createCache(backend, { maxValueBytes: 0 })).toThrow(
    'createCache: maxValueBytes must be a positive integer (bytes), got 0',
  );
});
