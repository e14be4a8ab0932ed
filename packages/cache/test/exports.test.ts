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
    'DEFAULT_SESSION_TTL_MS',
    'MAX_SNAPSHOT_BYTES',
    'MAX_TTL_MS',
    'SESSIONS_FILE_NAME',
    'SESSION_STORES',
    'SESSION_STORE_ERROR_CODE',
    'SessionStoreError',
    'TTL_ALLOWED',
    'UNFINISHED_SESSION_TTL_MS',
    'cacheConfigProblems',
    'cacheKey',
    'checkSessionId',
    'createCache',
    'createMemoryBackend',
    'defaultCachePath',
    'defaultSessionsPath',
    'formatTtl',
    'isRedisUrl',
    'openCacheBackend',
    'openRedisBackend',
    'openRedisSessionStore',
    'openSessionStore',
    'openSqliteBackend',
    'openSqliteSessionStore',
    'parseTtl',
    'redactRedisUrl',
    'redisUrlSecrets',
    'sessionStoreConfigProblems',
    'stableStringify',
  ]);
});
