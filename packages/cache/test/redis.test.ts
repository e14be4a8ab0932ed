import { startRedisServer } from '@agent/testkit';
import { expect, test } from 'vitest';
import {
  CacheError,
  createCache,
  openCacheBackend,
  openRedisBackend,
  REDIS_URL_ALLOWED,
  redactRedisUrl,
} from '../src/index.js';

const PASSWORD = 'hunter2-very-secret';

test('a password-protected server: the right password works; the wrong one fails without showing either', async () => {
  const server = await startRedisServer({ password: PASSWORD });
  try {
    const backend = await openCacheBackend({ backend: 'redis', url: server.url, maxEntries: 5 });
    const cache = createCache(backend);
    expect(backend.location).toBe(`redis://:[redacted]@127.0.0.1:${server.port}`);
    await cache.set('k', { answer: 42 }, 60_000);
    expect((await cache.get('k'))?.value).toEqual({ answer: 42 });
    await cache.close();
    await cache.close(); // idempotent

    const wrong = `redis://:wrong-password-123@127.0.0.1:${server.port}`;
    const error = await openRedisBackend({ url: wrong, maxEntries: 5 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(CacheError);
    const message = (error as CacheError).message;
    expect(message).toContain(`Redis cache redis://:[redacted]@127.0.0.1:${server.port}: cannot connect`);
    expect(message).not.toContain('wrong-password-123');
    expect(message).not.toContain(PASSWORD);
  } finally {
    await server.close();
  }
});

test('a server that stops answering makes calls fail quickly with a CacheError, never hang', async () => {
  const server = await startRedisServer();
  const cache = createCache(await openRedisBackend({ url: server.url, maxEntries: 5, timeoutMs: 500 }));
  await cache.set('k', 'v', 60_000);
  await server.close();
  await expect(cache.get('k')).rejects.toBeInstanceOf(CacheError);
  await expect(cache.set('k2', 'v', 60_000)).rejects.toMatchObject({ code: 'cache_unavailable' });
  await cache.close();
});

test('nothing listening: opening fails with the address, not a hang', async () => {
  const server = await startRedisServer();
  const url = server.url;
  await server.close();
  await expect(openRedisBackend({ url, maxEntries: 5, timeoutMs: 500 })).rejects.toThrow(
    `Redis cache ${url}: cannot connect`,
  );
});

test('URLs are checked and shown without their password', () => {
  expect(redactRedisUrl('redis://user:p%40ss@cache.internal:6380/2')).toBe(
    'redis://user:[redacted]@cache.internal:6380/2',
  );
  expect(redactRedisUrl('redis://cache.internal')).toBe('redis://cache.internal');
  expect(redactRedisUrl('not a url with secret')).toBe('[redacted]');
  return expect(openRedisBackend({ url: 'http://:pw-123456@host', maxEntries: 1 })).rejects.toThrow(
    `http://:[redacted]@host is not a Redis URL; allowed: ${REDIS_URL_ALLOWED}`,
  );
});
