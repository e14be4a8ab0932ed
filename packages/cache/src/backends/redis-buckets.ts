import { createHash } from 'node:crypto';

/**
 * How a Redis cache lays its entries out. Every script names all the keys it touches (KEYS),
 * and those keys share one hash slot on a cluster, so each script runs on one node.
 *
 * A bucket is four keys: a hash of the entries (field = cache key, value = times + value), the
 * recency set (scored by the bucket's clock), the expiry set (scored by expires-at) and the
 * clock. On one server the store is one bucket: exact LRU over all entries. On a cluster the
 * entries are spread over up to `MAX_BUCKETS` buckets by a hash of the key, each with its own
 * hash tag (so on its own slot, the buckets on every master) and an equal share of
 * `maxEntries`: the shares add up to `maxEntries`, so the bound holds; recency is kept per
 * bucket (the least recently used entry of the bucket that is full goes first). A bucket is
 * never smaller than `MIN_BUCKET_SHARE` entries: a small cache stays one bucket, exact LRU.
 */
export const MAX_BUCKETS = 16;
export const MIN_BUCKET_SHARE = 64;

/** The keys of one bucket, in the order the scripts read them. */
export type BucketKeys = [entries: string, recency: string, expiry: string, clock: string];

export interface BucketLayout {
  /** The buckets, each with its share of `maxEntries`. */
  readonly buckets: readonly { keys: BucketKeys; share: number }[];
  /** The bucket a cache key belongs to. */
  bucketOf(key: string): { keys: BucketKeys; share: number };
}

/**
 * The layout of a store under `prefix`: one bucket on a standalone server (`<prefix>entries`,
 * `lru`, `expiry`, `clock`), `min(16, maxEntries / 64)` on a cluster (`<prefix>{<n>}entries`, ...).
 */
export function bucketLayout(prefix: string, maxEntries: number, cluster: boolean): BucketLayout {
  const count = cluster ? Math.min(MAX_BUCKETS, Math.max(1, Math.floor(maxEntries / MIN_BUCKET_SHARE))) : 1;
  const buckets = Array.from({ length: count }, (_, n) => {
    const base = cluster ? `${prefix}{${n}}` : prefix;
    const keys: BucketKeys = [`${base}entries`, `${base}lru`, `${base}expiry`, `${base}clock`];
    const share = Math.floor(maxEntries / count) + (n < maxEntries % count ? 1 : 0);
    return { keys, share };
  });
  return {
    buckets,
    bucketOf: (key) =>
      count === 1 ? buckets[0]! : buckets[createHash('sha256').update(key).digest().readUInt32BE(0) % count]!,
  };
}

// Stores, indexes and evicts in one atomic step. KEYS: a bucket. ARGV: packed value, member,
// expiresAt, now, the bucket's share of maxEntries, ms to live. Expiry is judged by the caller's
// clock (`now`), like the other backends; as a backstop Redis drops the whole bucket once its
// longest-lived entry is past (an idle bucket frees its memory by itself).
export const SET_SCRIPT = `
local keep = math.max(redis.call('PTTL', KEYS[1]), tonumber(ARGV[6]))
redis.call('HSET', KEYS[1], ARGV[2], ARGV[1])
local tick = redis.call('INCR', KEYS[4])
redis.call('ZADD', KEYS[2], tick, ARGV[2])
redis.call('ZADD', KEYS[3], ARGV[3], ARGV[2])
local function drop(members)
  for _, member in ipairs(members) do
    redis.call('HDEL', KEYS[1], member)
    redis.call('ZREM', KEYS[2], member)
    redis.call('ZREM', KEYS[3], member)
  end
end
drop(redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', ARGV[4], 'LIMIT', 0, 1000))
local over = redis.call('ZCARD', KEYS[2]) - tonumber(ARGV[5])
if over > 0 then drop(redis.call('ZRANGE', KEYS[2], 0, over - 1)) end
for i = 1, 4 do redis.call('PEXPIRE', KEYS[i], keep) end
return 1
`;

// A hit bumps the entry's recency; a missing entry leaves the indexes.
// KEYS: a bucket. ARGV: member.
export const GET_SCRIPT = `
local value = redis.call('HGET', KEYS[1], ARGV[1])
if not value then
  redis.call('ZREM', KEYS[2], ARGV[1])
  redis.call('ZREM', KEYS[3], ARGV[1])
  return false
end
redis.call('ZADD', KEYS[2], 'XX', redis.call('INCR', KEYS[4]), ARGV[1])
return value
`;

// KEYS: a bucket (the clock unused). ARGV: member. Returns 1 when the entry was there.
export const DEL_SCRIPT = `
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[1])
return redis.call('HDEL', KEYS[1], ARGV[1])
`;
