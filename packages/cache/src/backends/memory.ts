import type { CacheBackend, StoredEntry } from '../types.js';

/**
 * Entries in a `Map` of this process (for tests, and for one process that wants no file). The
 * map's insertion order is the recency order: a hit moves its entry to the end, eviction takes
 * from the front.
 */
export function createMemoryBackend(options: { maxEntries: number }): CacheBackend {
  const entries = new Map<string, StoredEntry>();
  const drop = (key: string, entry: StoredEntry, now: number): boolean => {
    if (entry.expiresAt > now) return false;
    entries.delete(key);
    return true;
  };
  return {
    name: 'memory',
    location: 'memory',
    async get(key, now) {
      const entry = entries.get(key);
      if (entry === undefined || drop(key, entry, now)) return undefined;
      entries.delete(key);
      entries.set(key, entry);
      return entry;
    },
    async set(key, entry, now) {
      entries.delete(key);
      entries.set(key, { ...entry, value: Uint8Array.from(entry.value) });
      if (entries.size <= options.maxEntries) return;
      // Over the bound: expired entries go first, then the least recently used.
      for (const [other, held] of entries) drop(other, held, now);
      for (const oldest of entries.keys()) {
        if (entries.size <= options.maxEntries) break;
        entries.delete(oldest);
      }
    },
    async delete(key) {
      return entries.delete(key);
    },
    async size() {
      return entries.size;
    },
    async clear() {
      entries.clear();
    },
    async close() {
      entries.clear();
    },
  };
}
