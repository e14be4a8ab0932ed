import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import {
  CacheError,
  cacheConfigProblems,
  createCache,
  defaultCachePath,
  openCacheBackend,
  openSqliteBackend,
  REDIS_URL_ALLOWED,
} from '../src/index.js';
import { tempDir } from './helpers.js';

test('the default store is a SQLite file in the user cache directory, made on first use, in WAL mode', async () => {
  const xdg = tempDir();
  expect(defaultCachePath({ XDG_CACHE_HOME: xdg })).toBe(join(xdg, 'agent', 'cache.sqlite'));
  expect(defaultCachePath({})).toBe(join(homedir(), '.cache', 'agent', 'cache.sqlite'));
  // A relative XDG_CACHE_HOME is ignored, as the XDG spec says.
  expect(defaultCachePath({ XDG_CACHE_HOME: 'relative' })).toBe(
    join(homedir(), '.cache', 'agent', 'cache.sqlite'),
  );

  const backend = await openCacheBackend({}, { env: { XDG_CACHE_HOME: xdg } });
  const cache = createCache(backend);
  try {
    expect(backend.name).toBe('sqlite');
    expect(backend.location).toBe(join(xdg, 'agent', 'cache.sqlite'));
    await cache.set('k', 'v', 60_000);
    expect(statSync(join(xdg, 'agent')).mode & 0o777).toBe(0o700);
    expect(statSync(backend.location).mode & 0o777).toBe(0o600);
    // WAL mode: the write-ahead log sits beside the file while it is open.
    expect(existsSync(`${backend.location}-wal`)).toBe(true);
  } finally {
    await cache.close();
  }
  // Reopened: the entry is still there.
  const again = createCache(await openCacheBackend({ path: backend.location }));
  expect((await again.get('k'))?.value).toBe('v');
  await again.close();
  await expect(again.get('k')).rejects.toThrow(`the SQLite cache ${backend.location} is closed`);
});

test('a file that is not a database, or a place that cannot hold one, is a CacheError naming the path', async () => {
  const dir = tempDir();
  const notDb = join(dir, 'not.sqlite');
  writeFileSync(notDb, 'just text, not SQLite '.repeat(100));
  await expect(openSqliteBackend({ path: notDb, maxEntries: 1 })).rejects.toThrow(
    `cannot open the SQLite cache ${notDb}: file is not a database`,
  );
  expect(readFileSync(notDb, 'utf8')).toContain('just text'); // left alone
  const underFile = join(notDb, 'cache.sqlite');
  await expect(openSqliteBackend({ path: underFile, maxEntries: 1 })).rejects.toBeInstanceOf(CacheError);
  await expect(
    openSqliteBackend({ path: join(dir, 'x.sqlite'), maxEntries: 1, table: 'x; DROP' }),
  ).rejects.toThrow('SQLite cache table name "x; DROP" must be letters, digits and _');
});

test('a config that cannot work lists every problem; a redis URL is never quoted with its password', async () => {
  expect(cacheConfigProblems({ backend: 'mongo' as never }).map((p) => p.message)).toEqual([
    'cache: backend must be one of sqlite, redis, memory, got "mongo"',
  ]);
  expect(
    cacheConfigProblems({ backend: 'redis', url: 'http://:pw-123456@x', maxEntries: 0 }).map(
      (p) => p.message,
    ),
  ).toEqual([
    'cache: maxEntries must be a positive integer, got 0',
    `cache: url must be ${REDIS_URL_ALLOWED}, got "http://:[redacted]@x"`,
  ]);
  expect(cacheConfigProblems({ backend: 'redis' }).map((p) => p.message)).toEqual([
    `cache: url must be ${REDIS_URL_ALLOWED} (the redis backend needs one), got nothing`,
  ]);
  expect(
    cacheConfigProblems({ backend: 'memory', url: 'redis://:pw-123456@x', path: '/tmp/x' }).map(
      (p) => p.message,
    ),
  ).toEqual([
    'cache: url must be absent: `url` is for the redis backend, not memory, got "redis://:[redacted]@x"',
    'cache: path must be absent: `path` is for the sqlite backend, not memory, got "/tmp/x"',
  ]);
  await expect(openCacheBackend({ maxEntries: -1 })).rejects.toThrow(
    'cache: cache: maxEntries must be a positive integer, got -1',
  );
  const memory = await openCacheBackend({ backend: 'memory', maxEntries: 1 });
  expect(memory.name).toBe('memory');
});
