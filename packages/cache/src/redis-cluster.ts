import type { ClusterOptions, Cluster as IoCluster, Redis as IoRedis, RedisOptions } from 'ioredis';

/** A connected client: one server (`Redis`) or a Redis Cluster (`Cluster`). */
export type RedisClient = IoRedis | IoCluster;

/** True when `client` talks to a Redis Cluster. */
export function isCluster(client: RedisClient): client is IoCluster {
  return (client as IoCluster).isCluster === true;
}

/** How long a command waits between tries while a failover, a down cluster or a TRYAGAIN lasts, ms. */
const FAILOVER_RETRY_MS = 200;

/**
 * The options of a cluster client on `url` (`redis+cluster://`): `redisOptions` plus the URL's
 * user, password and TLS for every node (the seeds and those discovered), reconnecting to the
 * cluster as a lone server does (never faster than every 2 s), and commands that meet a failover
 * (a master died, its replica is being promoted) or a down cluster retried every 200 ms instead
 * of failing at once. Callers add their own bounds (`maxRedirections`, `slotsRefreshTimeout`).
 */
export function redisClusterOptions(url: string, redisOptions: RedisOptions): ClusterOptions {
  const parsed = new URL(url);
  const nodeOptions: RedisOptions = { ...redisOptions };
  const username = decoded(parsed.username);
  const password = decoded(parsed.password);
  if (username !== undefined) nodeOptions.username = username;
  if (password !== undefined) nodeOptions.password = password;
  if (parsed.protocol === 'rediss+cluster:') nodeOptions.tls = {};
  return {
    redisOptions: nodeOptions,
    clusterRetryStrategy: (times) => Math.min(times * 200, 2000),
    retryDelayOnFailover: FAILOVER_RETRY_MS,
    retryDelayOnClusterDown: FAILOVER_RETRY_MS,
  };
}

/** A URL part percent-decoded (kept as written when it is not valid percent-encoding); undefined when empty. */
function decoded(text: string): string | undefined {
  if (text === '') return undefined;
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Hash slots of a Redis Cluster. */
const CLUSTER_SLOTS = 16384;

/** The cluster hash slot of `key`: CRC16 (XMODEM) of its hash tag (the text in its first `{...}`, when not empty) or of all of it. */
export function clusterSlot(key: string): number {
  const bytes = Buffer.from(key, 'utf8');
  const open = bytes.indexOf(0x7b);
  const close = open === -1 ? -1 : bytes.indexOf(0x7d, open + 1);
  const hashed = close > open + 1 ? bytes.subarray(open + 1, close) : bytes;
  let crc = 0;
  for (const byte of hashed) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++)
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc % CLUSTER_SLOTS;
}

/**
 * On a cluster, waits (`WAIT 1`, at most `timeoutMs`) until a replica of the master holding `key`
 * has every write this client sent that master: Redis replicates asynchronously, and a master
 * SIGKILLed after answering a write may not have passed it on. Resolves with how many replicas
 * confirmed (0: none in time), or undefined when there is nothing to wait for (one server, or a
 * master without replicas, as after a failover until a replica joins). Rejects when the master
 * went away before answering (the write may be lost: the caller writes again).
 */
export async function replicasConfirming(
  client: RedisClient,
  key: string,
  timeoutMs: number,
): Promise<number | undefined> {
  if (!isCluster(client)) return undefined;
  const replicas = (client.slots[clusterSlot(key)]?.length ?? 1) - 1;
  if (replicas < 1) return undefined;
  // WAIT counts the writes of its own connection: a pipeline on `key` goes to its master over
  // the connection the writes took.
  const replies = await client.pipeline().exists(key).call('wait', '1', String(timeoutMs)).exec();
  const failed = replies?.find(([error]) => error !== null)?.[0];
  if (failed) throw failed;
  return Number(replies?.[1]?.[1] ?? 0);
}

/**
 * `replicasConfirming`, throwing when no replica confirmed within `timeoutMs` (the write is on
 * the master only, and lost if it fails): for a write that must not be acknowledged unsafe.
 */
export async function waitForReplica(client: RedisClient, key: string, timeoutMs: number): Promise<void> {
  const confirmed = await replicasConfirming(client, key, timeoutMs);
  if (confirmed !== undefined && confirmed < 1) {
    throw new Error(
      `no replica confirmed the write to ${key} within ${timeoutMs} ms: it is on its master only and would be lost if that master failed`,
    );
  }
}
