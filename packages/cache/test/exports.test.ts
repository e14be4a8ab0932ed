import { expect, test } from 'vitest';

// The public surface, pinned (types are not listed: they vanish at run time). Adding or removing an
// export is a visible change to this list; internals stay unexported or under `/internal`.
test('@agent/cache exports exactly these values', async () => {
  expect(Object.keys(await import('@agent/cache')).sort()).toEqual([
    'CACHE_BACKENDS',
    'CACHE_ERROR_CODE',
    'CACHE_FILE_NAME',
    'CacheError',
    'DEFAULT_MAX_ENTRIES',
    'DEFAULT_MAX_VALUE_BYTES',
    'MAX_TTL_MS',
    'TTL_ALLOWED',
    'cacheConfigProblems',
    'cacheKey',
    'createCache',
    'createMemoryBackend',
    'defaultCachePath',
    'formatTtl',
    'openCacheBackend',
    'openRedisBackend',
    'openSqliteBackend',
    'parseTtl',
    'redactRedisUrl',
    'redisUrlSecrets',
    'stableStringify',
  ]);
});
