import type { Redis as IoRedis, RedisOptions } from 'ioredis';
import { isCluster, type RedisClient, redisClusterOptions } from './redis-cluster.js';
import { redisClusterNodes } from './redis-url.js';

/** How a Redis store of this package reports: the error for a failed step, and for ioredis not loading. */
export interface RedisFailures {
  fail: (what: string, error: unknown) => Error;
  notLoaded: (error: unknown) => Error;
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
    seeds === undefined
      ? new Redis(url, bounds)
      : new Cluster(seeds, {
          ...redisClusterOptions(url, { ...bounds, lazyConnect: false }),
          lazyConnect: true,
          slotsRefreshTimeout: timeoutMs,
        });
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
