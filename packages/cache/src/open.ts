import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { ConfigError } from '@agent/protocol';
import { isPositiveInteger } from '@agent/protocol/util';
import { createMemoryBackend } from './backends/memory.js';
import { openRedisBackend } from './backends/redis.js';
import { openSqliteBackend } from './backends/sqlite.js';
import { DEFAULT_MAX_ENTRIES } from './cache.js';
import { isRedisUrl, REDIS_URL_ALLOWED, redactRedisUrl } from './redis-url.js';
import type { CacheBackend, CacheBackendName } from './types.js';

/** The backends `openCacheBackend` knows. */
export const CACHE_BACKENDS: readonly CacheBackendName[] = ['sqlite', 'redis', 'memory'];

/** Name of the SQLite file in the user's cache directory. */
export const CACHE_FILE_NAME = 'cache.sqlite';

/** Where a store is and how big it may grow (`agent.json`'s `cache`). */
export interface CacheStoreConfig {
  /** Default `sqlite`. */
  backend?: CacheBackendName;
  /** sqlite: the database file (default `defaultCachePath()`). */
  path?: string;
  /** redis: `redis://[:password@]host[:port][/db]`, `rediss://...`, or a cluster's `redis+cluster://...`. */
  url?: string;
  /** Entries kept; the least recently used go first (default 10,000). */
  maxEntries?: number;
}

/**
 * `$XDG_CACHE_HOME/agent/cache.sqlite`, else `~/.cache/agent/cache.sqlite` (the user's cache
 * directory, beside the `~/.config/agent` of the configuration).
 */
export function defaultCachePath(env: Record<string, string | undefined> = process.env): string {
  const xdg = env.XDG_CACHE_HOME;
  const base = xdg !== undefined && xdg !== '' && isAbsolute(xdg) ? xdg : join(homedir(), '.cache');
  return join(base, 'agent', CACHE_FILE_NAME);
}

/** The problems of a store config, each a `ConfigError` (empty when it can work). The URL's password is never quoted. */
export function cacheConfigProblems(config: CacheStoreConfig, source = 'cache'): ConfigError[] {
  const backend = config.backend ?? 'sqlite';
  if (!CACHE_BACKENDS.includes(backend)) {
    return [
      new ConfigError({
        field: 'backend',
        value: backend,
        allowed: `one of ${CACHE_BACKENDS.join(', ')}`,
        source,
      }),
    ];
  }
  const problems: (ConfigError | undefined)[] = [
    config.maxEntries !== undefined && !isPositiveInteger(config.maxEntries)
      ? new ConfigError({
          field: 'maxEntries',
          value: config.maxEntries,
          allowed: 'a positive integer',
          source,
        })
      : undefined,
    urlProblem(config.url, backend, source),
    pathProblem(config.path, backend, source),
  ];
  return problems.filter((problem) => problem !== undefined);
}

/** `url`: required by the redis backend (a Redis URL: one server or a cluster), absent for the others. */
function urlProblem(
  url: string | undefined,
  backend: CacheBackendName,
  source: string,
): ConfigError | undefined {
  if (backend === 'redis') {
    if (url === undefined) {
      return new ConfigError({
        field: 'url',
        allowed: `${REDIS_URL_ALLOWED} (the redis backend needs one)`,
        source,
      });
    }
    if (isRedisUrl(url)) return undefined;
    return new ConfigError({
      field: 'url',
      value: redactRedisUrl(url),
      allowed: REDIS_URL_ALLOWED,
      source,
    });
  }
  if (url === undefined) return undefined;
  return new ConfigError({
    field: 'url',
    value: redactRedisUrl(url),
    allowed: `absent: \`url\` is for the redis backend, not ${backend}`,
    source,
  });
}

/** `path`: a file path for the sqlite backend, absent for the others. */
function pathProblem(
  path: string | undefined,
  backend: CacheBackendName,
  source: string,
): ConfigError | undefined {
  if (path === undefined) return undefined;
  if (backend !== 'sqlite') {
    return new ConfigError({
      field: 'path',
      value: path,
      allowed: `absent: \`path\` is for the sqlite backend, not ${backend}`,
      source,
    });
  }
  if (typeof path !== 'string' || path === '') {
    return new ConfigError({ field: 'path', value: path, allowed: 'a file path', source });
  }
  return undefined;
}

/**
 * Opens the store a config names: SQLite (the default: `path` or `defaultCachePath(env)`), Redis
 * (`url`) or memory. Throws `ConfigError` for a config that cannot work, `CacheError` when the
 * store cannot be opened or reached.
 */
export async function openCacheBackend(
  config: CacheStoreConfig = {},
  options: { env?: Record<string, string | undefined> } = {},
): Promise<CacheBackend> {
  const problems = cacheConfigProblems(config);
  if (problems.length > 0) throw ConfigError.of(problems, 'cache');
  const maxEntries = config.maxEntries ?? DEFAULT_MAX_ENTRIES;
  const backend = config.backend ?? 'sqlite';
  if (backend === 'memory') return createMemoryBackend({ maxEntries });
  if (backend === 'redis') return openRedisBackend({ url: config.url!, maxEntries });
  return openSqliteBackend({ path: config.path ?? defaultCachePath(options.env), maxEntries });
}
