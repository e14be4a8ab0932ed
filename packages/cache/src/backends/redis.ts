import { CacheError } from '../errors.js';
import type { RedisClient } from '../redis-client.js';
import { connectRedisClient, quitRedis, redisCommand } from '../redis-client.js';
import { isRedisUrl, REDIS_URL_ALLOWED, redactRedisText, redactRedisUrl } from '../redis-url.js';
import type { CacheBackend, StoredEntry } from '../types.js';

export interface RedisBackendOptions {
  /** `redis://[:password@]host[:port][/db]` or `rediss://...` (TLS). */
  url: string;
  maxEntries: number;
  /** Prefix of every key this store writes, so several stores can share a server; default `agent:cache:`. */
  prefix?: string;
  /** Bound on connecting and on each command, ms (default 2000): a server that is down is a quick miss. */
  timeoutMs?: number;
}

// Stores, indexes and evicts in one atomic step. KEYS: entry, recency set, expiry set, clock.
// ARGV: value, ms to live (Redis's own expiry, a backstop), member, expiresAt, now, maxEntries,
// entry key prefix. Expiry is judged by the caller's clock (`now`), like the other backends.
const SET_SCRIPT = `
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
local tick = redis.call('INCR', KEYS[4])
redis.call('ZADD', KEYS[2], tick, ARGV[3])
redis.call('ZADD', KEYS[3], ARGV[4], ARGV[3])
local gone = redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', ARGV[5], 'LIMIT', 0, 1000)
for _, member in ipairs(gone) do
  redis.call('DEL', ARGV[7] .. member)
  redis.call('ZREM', KEYS[2], member)
  redis.call('ZREM', KEYS[3], member)
end
local over = redis.call('ZCARD', KEYS[2]) - tonumber(ARGV[6])
if over > 0 then
  local oldest = redis.call('ZRANGE', KEYS[2], 0, over - 1)
  for _, member in ipairs(oldest) do
    redis.call('DEL', ARGV[7] .. member)
    redis.call('ZREM', KEYS[2], member)
    redis.call('ZREM', KEYS[3], member)
  end
end
return 1
`;

// A hit bumps the entry's recency; an entry Redis already expired leaves the indexes.
// KEYS: entry, recency set, expiry set, clock. ARGV: member.
const GET_SCRIPT = `
local value = redis.call('GET', KEYS[1])
if not value then
  redis.call('ZREM', KEYS[2], ARGV[1])
  redis.call('ZREM', KEYS[3], ARGV[1])
  return false
end
redis.call('ZADD', KEYS[2], 'XX', redis.call('INCR', KEYS[4]), ARGV[1])
return value
`;

const DEL_SCRIPT = `
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[1])
return redis.call('DEL', KEYS[1])
`;

type ScriptedClient = RedisClient & {
  cacheSet(...args: (string | number | Buffer)[]): Promise<number>;
  cacheGetBuffer(...args: string[]): Promise<Buffer | null>;
  cacheDel(...args: string[]): Promise<number>;
};

/** Header before the value: stored-at and expires-at as two big-endian doubles. */
const HEADER_BYTES = 16;

/**
 * Entries on a Redis server through `ioredis`, for several machines: the value with its times in
 * one string key (with Redis's own expiry as a backstop), recency in a sorted set scored by a
 * counter, expiry in another; storing, expiring and evicting run as one Lua script, so several
 * processes keep the bound. A standalone server (the scripts name keys Redis Cluster would
 * need to know in advance). The password never appears in its messages.
 */
export async function openRedisBackend(options: RedisBackendOptions): Promise<CacheBackend> {
  const { url } = options;
  const shown = redactRedisUrl(url);
  if (!isRedisUrl(url)) throw new CacheError(`${shown} is not a Redis URL; allowed: ${REDIS_URL_ALLOWED}`);
  const prefix = options.prefix ?? 'agent:cache:';
  const timeoutMs = options.timeoutMs ?? 2000;
  const fail = (what: string, error: unknown) =>
    new CacheError(redactRedisText(`Redis cache ${shown}: ${what}: ${(error as Error).message}`, url), {
      cause: error,
    });
  const notLoaded = (error: unknown) =>
    new CacheError('the Redis cache needs the ioredis package, which did not load', { cause: error });
  const client = (await connectRedisClient(url, timeoutMs, { fail, notLoaded }, (unprepared) => {
    unprepared.defineCommand('cacheSet', { numberOfKeys: 4, lua: SET_SCRIPT });
    unprepared.defineCommand('cacheGet', { numberOfKeys: 4, lua: GET_SCRIPT });
    unprepared.defineCommand('cacheDel', { numberOfKeys: 3, lua: DEL_SCRIPT });
  })) as unknown as ScriptedClient;
  return redisBackend(client, { shown, prefix, maxEntries: options.maxEntries, fail });
}

/** The backend over a connected client (the keys, scripts and the bound). */
function redisBackend(
  client: ScriptedClient,
  options: {
    shown: string;
    prefix: string;
    maxEntries: number;
    fail: (what: string, error: unknown) => CacheError;
  },
): CacheBackend {
  const { shown, prefix, fail } = options;
  const { lru, expiry, clock, entryPrefix } = storeKeys(prefix);
  const run = <T>(what: string, command: () => Promise<T>): Promise<T> => redisCommand(fail, what, command);
  let closed = false;
  return {
    name: 'redis',
    location: shown,
    async get(key, now) {
      const packed = await run('read', () =>
        client.cacheGetBuffer(entryPrefix + key, lru, expiry, clock, key),
      );
      const entry = packed === null ? undefined : unpackEntry(packed);
      if (entry === undefined) return undefined;
      if (entry.expiresAt <= now) {
        await run('delete', () => client.cacheDel(entryPrefix + key, lru, expiry, key));
        return undefined;
      }
      return entry;
    },
    async set(key, entry, now) {
      await run('write', () => storeEntry(client, prefix, key, entry, now, options.maxEntries));
    },
    async delete(key) {
      return (await run('delete', () => client.cacheDel(entryPrefix + key, lru, expiry, key))) > 0;
    },
    async size() {
      return run('count', () => client.zcard(lru));
    },
    async clear() {
      await run('clear', () => unlinkPrefixed(client, prefix));
    },
    async close() {
      if (closed) return;
      closed = true;
      await quitRedis(client);
    },
  };
}

/** The keys of the store under `prefix`: the recency and expiry sets, the recency clock, and what every entry key starts with. */
function storeKeys(prefix: string) {
  return {
    lru: `${prefix}lru`,
    expiry: `${prefix}expiry`,
    clock: `${prefix}clock`,
    entryPrefix: `${prefix}e:`,
  };
}

/** Runs SET_SCRIPT for one entry: its KEYS and ARGV in the order the script reads them. */
function storeEntry(
  client: ScriptedClient,
  prefix: string,
  key: string,
  entry: StoredEntry,
  now: number,
  maxEntries: number,
): Promise<number> {
  const { lru, expiry, clock, entryPrefix } = storeKeys(prefix);
  const liveMs = Math.max(1, Math.ceil(entry.expiresAt - now));
  const keys = [entryPrefix + key, lru, expiry, clock];
  const args = [packEntry(entry), liveMs, key, entry.expiresAt, now, maxEntries, entryPrefix];
  return client.cacheSet(...keys, ...args);
}

/** An entry as one Redis string: the header (its times), then the value. */
function packEntry(entry: StoredEntry): Buffer {
  const header = Buffer.allocUnsafe(HEADER_BYTES);
  header.writeDoubleBE(entry.storedAt, 0);
  header.writeDoubleBE(entry.expiresAt, 8);
  return Buffer.concat([header, entry.value]);
}

/** The entry `packEntry` wrote, or undefined for a string too short to hold the header. */
function unpackEntry(packed: Buffer): StoredEntry | undefined {
  if (packed.length < HEADER_BYTES) return undefined;
  return {
    value: packed.subarray(HEADER_BYTES),
    storedAt: packed.readDoubleBE(0),
    expiresAt: packed.readDoubleBE(8),
  };
}

/** Unlinks every key under `prefix`, a batch of the scan at a time (SCAN, not KEYS: the server is not blocked). */
async function unlinkPrefixed(client: RedisClient, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await client.scan(cursor, 'MATCH', `${escapeGlob(prefix)}*`, 'COUNT', 500);
    if (keys.length > 0) await client.unlink(...keys);
    cursor = next;
  } while (cursor !== '0');
}

function escapeGlob(text: string): string {
  return text.replace(/[*?[\]\\]/g, '\\$&');
}
