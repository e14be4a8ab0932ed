import type { ClusterOptions, Cluster as IoCluster, Redis as IoRedis, RedisOptions } from 'ioredis';
import { redisClusterNodes } from './redis-url.js';

/** A connected client of this package: one server (`Redis`) or a Redis Cluster (`Cluster`). */
export type RedisClient = IoRedis | IoCluster;

/** How a Redis store of this package reports: the error for a failed step, and for ioredis not loading. */
export interface RedisFailures {
  fail: (what: string, error: unknown) => Error;
  notLoaded: (error: unknown) => Error;
}

/** True when `client` talks to a Redis Cluster. */
export function isCluster(client: RedisClient): client is IoCluster {
  return (client as IoCluster).isCluster === true;
}

/**
 * A connected client, ioredis loaded on first use: a `Cluster` for a `redis+cluster://` URL
 * (every node with the URL's user, password and TLS), else a `Redis`. Connecting and each command
 * bounded by `timeoutMs`, reconnecting forever (a restarted server comes back) never faster than
 * every 2 s, and silent (ioredis prints unhandled 'error' events; a library must not: commands
 * report failures). `prepare` runs before connecting (scripts are defined there).
 */
export async function connectRedisClient(
  url: string,
  timeoutMs: number,
  failures: RedisFailures,
  prepare?: (client: RedisClient) => void,
): Promise<RedisClient> {
  let Redis: typeof import('ioredis').Redis;
  let Cluster: typeof import('ioredis').Cluster;
  try {
    ({ Redis, Cluster } = await import('ioredis'));
  } catch (error) {
    throw failures.notLoaded(error);
  }
  const bounds: RedisOptions = {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    commandTimeout: timeoutMs,
    maxRetriesPerRequest: 1,
    retryStrategy: (times) => Math.min(times * 200, 2000),
  };
  const seeds = redisClusterNodes(url);
  const client: RedisClient =
    seeds === undefined ? new Redis(url, bounds) : new Cluster(seeds, clusterOptions(url, bounds, timeoutMs));
  client.on('error', () => {});
  prepare?.(client);
  try {
    await client.connect();
  } catch (error) {
    client.disconnect();
    throw failures.fail('cannot connect', error);
  }
  return client;
}

/**
 * The options of a cluster client: `bounds` and the URL's credentials and TLS for every node
 * (the seeds and those discovered), the slot map refreshed within the same bound, and
 * reconnecting to the cluster as a lone server does.
 */
function clusterOptions(url: string, bounds: RedisOptions, timeoutMs: number): ClusterOptions {
  const parsed = new URL(url);
  const redisOptions: RedisOptions = { ...bounds, lazyConnect: false };
  if (parsed.username !== '') redisOptions.username = decodeURIComponent(parsed.username);
  if (parsed.password !== '') redisOptions.password = decodeURIComponent(parsed.password);
  if (parsed.protocol === 'rediss+cluster:') redisOptions.tls = {};
  return {
    lazyConnect: true,
    redisOptions,
    slotsRefreshTimeout: timeoutMs,
    clusterRetryStrategy: (times) => Math.min(times * 200, 2000),
    // A failover takes the cluster's node timeout and an election: retry moved and down
    // slots a little while instead of failing the first command.
    retryDelayOnFailover: 200,
    retryDelayOnClusterDown: 200,
  };
}

/** Runs one command; its failure becomes `fail(what, error)`. */
export async function redisCommand<T>(
  fail: RedisFailures['fail'],
  what: string,
  command: () => Promise<T>,
): Promise<T> {
  try {
    return await command();
  } catch (error) {
    throw fail(what, error);
  }
}

/** Quits, or drops the connection when the server does not answer. */
export async function quitRedis(client: RedisClient): Promise<void> {
  try {
    await client.quit();
  } catch {
    client.disconnect();
  }
}

/**
 * The servers to SCAN to see every key: each master of a cluster (a SCAN sent to the cluster
 * client reaches one node only), else the one server.
 */
export function scanTargets(client: RedisClient): IoRedis[] {
  return isCluster(client) ? client.nodes('master') : [client];
}
