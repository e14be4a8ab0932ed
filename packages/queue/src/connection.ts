import { isRedisClusterUrl, redisClusterNodes } from '@agent/cache';
import { redisClusterOptions } from '@agent/cache/redis';
import { Cluster, Redis } from 'ioredis';
import { checkQueueUrl } from './queue-url.js';

/** A connection of the queue: one Redis server, or a Redis Cluster (`redis+cluster://`). */
export type QueueRedis = Redis | Cluster;

/**
 * How long a command waits out a cluster failover (a master died, its replica takes over) before
 * it fails: ioredis retries every 200 ms (`redisClusterOptions`) up to this many times (60 s).
 */
const FAILOVER_RETRIES = 300;

/**
 * How long a write that must survive a failover (an enqueued job, a run's result) waits for a
 * replica to confirm it (`replicasConfirming`), ms; then it goes on unconfirmed.
 */
export const REPLICA_WAIT_MS = 2000;

/**
 * A Redis connection for the queue. BullMQ needs `maxRetriesPerRequest: null` (its blocking
 * commands wait across reconnects); ioredis reconnects by itself with a bounded backoff, so a
 * Redis restart pauses the queue instead of crashing a process. A cluster URL opens an ioredis
 * `Cluster` on its seed nodes (password and TLS from the URL) whose commands wait out a failover.
 */
export function openQueueRedis(url: string): QueueRedis {
  checkQueueUrl(url);
  const redis = isRedisClusterUrl(url) ? openCluster(url) : openServer(url);
  // Errors surface on the commands that fail; the connection's own event would crash the process unheard.
  redis.on('error', () => undefined);
  return redis;
}

function openServer(url: string): Redis {
  return new Redis(url, {
    maxRetriesPerRequest: null,
    enableOfflineQueue: true,
    retryStrategy: (times) => Math.min(200 * times, 2000),
  });
}

function openCluster(url: string): Cluster {
  return new Cluster(redisClusterNodes(url) ?? [], {
    ...redisClusterOptions(url, { maxRetriesPerRequest: null }),
    enableOfflineQueue: true,
    retryDelayOnTryAgain: 200,
    maxRedirections: FAILOVER_RETRIES,
  });
}
