import { ConfigError } from '@agent/protocol';
import { isPositiveInteger } from '@agent/protocol/util';
import { decodeValue, encodeValue, ValueTooLarge } from './codec.js';
import type { CacheBackend, StoredEntry } from './types.js';

/** Largest value stored, as JSON bytes, unless `maxValueBytes` says otherwise (4 MiB). */
export const DEFAULT_MAX_VALUE_BYTES = 4 * 1024 * 1024;
/** Entries kept unless `maxEntries` says otherwise. */
export const DEFAULT_MAX_ENTRIES = 10_000;

const MAX_KEY_LENGTH = 512;

/** A value found in the cache, with how old it is and how long it has left. */
export interface CacheHitEntry<T = unknown> {
  value: T;
  storedAt: number;
  expiresAt: number;
  ageMs: number;
  expiresInMs: number;
}

/** What `set` did: stored, or why not. */
export type CacheSetOutcome =
  | { stored: true }
  | { stored: false; reason: 'too_large' | 'ttl_off'; detail: string };

/**
 * JSON values by key over a `CacheBackend`: values are compressed (brotli) and bounded in size
 * both ways (a value over `maxValueBytes` is not stored; stored bytes that would inflate past it
 * are a miss). Keys are strings of at most 512 characters (use `cacheKey`); the namespace is
 * put before every key, so several users can share one store.
 */
export interface Cache {
  readonly backend: CacheBackend;
  get<T = unknown>(key: string): Promise<CacheHitEntry<T> | undefined>;
  /** Stores `value` (JSON) for `ttlMs` (0 stores nothing). */
  set(key: string, value: unknown, ttlMs: number): Promise<CacheSetOutcome>;
  delete(key: string): Promise<boolean>;
  size(): Promise<number>;
  clear(): Promise<void>;
  close(): Promise<void>;
}

export interface CacheOptions {
  /** Put before every key (`response:`, `tool:`). */
  namespace?: string;
  /** Largest value stored, as JSON bytes (default 4 MiB). */
  maxValueBytes?: number;
  /** The clock expiry is judged by (default `Date.now`). */
  now?: () => number;
}

/** A cache over `backend`. Backend failures are thrown as `CacheError`s (callers usually treat them as misses). */
export function createCache(backend: CacheBackend, options: CacheOptions = {}): Cache {
  const maxValueBytes = checkedMaxValueBytes(options.maxValueBytes ?? DEFAULT_MAX_VALUE_BYTES);
  const now = options.now ?? Date.now;
  const namespace = options.namespace ?? '';
  const fullKey = (key: string): string => namespace + checkedKey(key);
  return {
    backend,
    async get<T>(key: string) {
      const at = now();
      const id = fullKey(key);
      const entry = await backend.get(id, at);
      if (entry === undefined) return undefined;
      const decoded = await decodeValue(entry.value, maxValueBytes);
      if (decoded === undefined) {
        // Unreadable (corrupt, another format, too large): gone, so it is not read again.
        await backend.delete(id);
        return undefined;
      }
      return hitEntry(decoded.value as T, entry, at);
    },
    async set(key, value, ttlMs) {
      const id = fullKey(key);
      if (!(ttlMs > 0)) return { stored: false, reason: 'ttl_off', detail: 'the TTL is off' };
      let bytes: Uint8Array;
      try {
        bytes = await encodeValue(value, maxValueBytes);
      } catch (error) {
        if (error instanceof ValueTooLarge)
          return { stored: false, reason: 'too_large', detail: error.message };
        throw error;
      }
      const at = now();
      await backend.set(id, { value: bytes, storedAt: at, expiresAt: at + ttlMs }, at);
      return { stored: true };
    },
    delete: (key) => backend.delete(fullKey(key)),
    size: () => backend.size(),
    clear: () => backend.clear(),
    close: () => backend.close(),
  };
}

function checkedMaxValueBytes(maxValueBytes: number): number {
  if (isPositiveInteger(maxValueBytes)) return maxValueBytes;
  throw new ConfigError({
    field: 'maxValueBytes',
    value: maxValueBytes,
    allowed: 'a positive integer (bytes)',
    source: 'createCache',
  });
}

/** The key as given, or a `ConfigError` for one no backend should hold (empty, too long, not a string). */
function checkedKey(key: string): string {
  if (typeof key === 'string' && key.length > 0 && key.length <= MAX_KEY_LENGTH) return key;
  throw new ConfigError({
    field: 'key',
    value: key,
    allowed: `a string of 1 to ${MAX_KEY_LENGTH} characters (cacheKey makes one)`,
    source: 'cache',
  });
}

/** A stored entry as a hit read at `at`: its age and time left never below zero (clocks of other processes may differ). */
function hitEntry<T>(value: T, entry: StoredEntry, at: number): CacheHitEntry<T> {
  return {
    value,
    storedAt: entry.storedAt,
    expiresAt: entry.expiresAt,
    ageMs: Math.max(0, at - entry.storedAt),
    expiresInMs: Math.max(0, entry.expiresAt - at),
  };
}
