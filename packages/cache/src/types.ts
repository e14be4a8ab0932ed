/** One entry as a backend keeps it: the encoded value and its times (epoch milliseconds). */
export interface StoredEntry {
  value: Uint8Array;
  storedAt: number;
  expiresAt: number;
}

/** The backends: `sqlite` (the embedded default), `redis`, `memory`. */
export type CacheBackendName = 'sqlite' | 'redis' | 'memory';

/**
 * A store of bytes by key, with expiry and a bound on the number of entries: the one interface
 * the SQLite, Redis and memory backends implement (bring your own with it). Expiry is judged by
 * the `now` the caller passes, so one clock rules every backend (and tests can fake it).
 */
export interface CacheBackend {
  readonly name: CacheBackendName | (string & {});
  /** Where it stores, for messages: a file path, a URL with its password hidden, `memory`. */
  readonly location: string;
  /** The entry under `key` unless missing or expired at `now` (an expired one is dropped); a hit counts as a use. */
  get(key: string, now: number): Promise<StoredEntry | undefined>;
  /** Stores the entry, drops what expired by `now`, then the least recently used beyond `maxEntries`. */
  set(key: string, entry: StoredEntry, now: number): Promise<void>;
  /** True when there was an entry to drop. */
  delete(key: string): Promise<boolean>;
  /** Entries held (some may have expired and not been dropped yet). */
  size(): Promise<number>;
  clear(): Promise<void>;
  /** Releases the file or the connection; idempotent. */
  close(): Promise<void>;
}
