import { CacheError } from '../errors.js';
import { connectRedisClient, quitRedis, redisCommand } from '../redis-client.js';
import { isCluster, type RedisClient } from '../redis-cluster.js';
import { isRedisUrl, REDIS_URL_ALLOWED, redactRedisText, redactRedisUrl } from '../redis-url.js';
import type { CacheBackend, StoredEntry } from '../types.js';
import { type BucketLayout, bucketLayout, DEL_SCRIPT, GET_SCRIPT, SET_SCRIPT } from './redis-buckets.js';

export interface RedisBackendOptions {
  /** `redis://[:password@]host[:port][/db]`, `rediss://...` (TLS), or a cluster's `redis+cluster://...`. */
  url: string;
  maxEntries: number;
  /** Prefix of every key this store writes, so several stores can share a server; default `agent:cache:`. */
  prefix?: string;
  /** Bound on connecting and on each command, ms (default 2000): a server that is down is a quick miss. */
  timeoutMs?: number;
}

type ScriptedClient = RedisClient & {
  cacheSet(...args: (string | number | Buffer)[]): Promise<number>;
  cacheGetBuffer(...args: string[]): Promise<Buffer | null>;
  cacheDel(...args: string[]): Promise<number>;
};

/** Header before the value: stored-at and expires-at as two big-endian doubles. */
const HEADER_BYTES = 16;

/**
 * Entries on a Redis server or a Redis Cluster through `ioredis`, for several machines: in
 * buckets (`bucketLayout`: one on a server, up to 16 spread over a cluster's masters), each a
 * hash of the entries with their times, recency in a sorted set scored by the bucket's counter,
 * expiry in another; storing, expiring and evicting run as one Lua script over the declared keys
 * of one bucket, so several processes keep the bound. The password never appears in its messages.
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
    unprepared.defineCommand('cacheDel', { numberOfKeys: 4, lua: DEL_SCRIPT });
  })) as unknown as ScriptedClient;
  const layout = bucketLayout(prefix, options.maxEntries, isCluster(client));
  return redisBackend(client, { shown, layout, fail });
}

/** The backend over a connected client (the buckets, their scripts and the bound). */
function redisBackend(
  client: ScriptedClient,
  options: { shown: string; layout: BucketLayout; fail: (what: string, error: unknown) => CacheError },
): CacheBackend {
  const { shown, layout, fail } = options;
  const run = <T>(what: string, command: () => Promise<T>): Promise<T> => redisCommand(fail, what, command);
  const remove = (key: string) => client.cacheDel(...layout.bucketOf(key).keys, key);
  let closed = false;
  return {
    name: 'redis',
    location: shown,
    async get(key, now) {
      const packed = await run('read', () => client.cacheGetBuffer(...layout.bucketOf(key).keys, key));
      const entry = packed === null ? undefined : unpackEntry(packed);
      if (entry === undefined) return undefined;
      if (entry.expiresAt <= now) {
        await run('delete', () => remove(key));
        return undefined;
      }
      return entry;
    },
    async set(key, entry, now) {
      const { keys, share } = layout.bucketOf(key);
      const liveMs = Math.max(1, Math.ceil(entry.expiresAt - now));
      const args = [packEntry(entry), key, entry.expiresAt, now, share, liveMs];
      await run('write', () => client.cacheSet(...keys, ...args));
    },
    async delete(key) {
      return (await run('delete', () => remove(key))) > 0;
    },
    async size() {
      const counts = await run('count', () =>
        Promise.all(layout.buckets.map(({ keys }) => client.zcard(keys[1]))),
      );
      return counts.reduce((sum, count) => sum + count, 0);
    },
    async clear() {
      // A bucket's keys share a slot: one DEL each.
      await run('clear', () => Promise.all(layout.buckets.map(({ keys }) => client.del(...keys))));
    },
    async close() {
      if (closed) return;
      closed = true;
      await quitRedis(client);
    },
  };
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
