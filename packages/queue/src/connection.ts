import { isRedisClusterUrl, redisClusterNodes } from '@agent/cache';
import { Cluster, Redis } from 'ioredis';
import { checkQueueUrl } from './queue-url.js';

/** A connection of the queue: one Redis server, or a Redis Cluster (`redis+cluster://`). */
export type QueueRedis = Redis | Cluster;

/**
 * How long a command waits out a cluster failover (a master died, its replica takes over) before
 * it fails: ioredis retries every `FAILOVER_RETRY_MS` up to `FAILOVER_RETRIES` times (60 s).
 */
const FAILOVER_RETRY_MS = 200;
const FAILOVER_RETRIES = 300;

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
  const parsed = new URL(url);
  const password = decode(parsed.password);
  const username = decode(parsed.username);
  return new Cluster(redisClusterNodes(url) ?? [], {
    redisOptions: {
      maxRetriesPerRequest: null,
      ...(password === undefined ? {} : { password }),
      ...(username === undefined ? {} : { username }),
      ...(parsed.protocol === 'rediss+cluster:' ? { tls: {} } : {}),
    },
    enableOfflineQueue: true,
    retryDelayOnFailover: FAILOVER_RETRY_MS,
    retryDelayOnClusterDown: FAILOVER_RETRY_MS,
    retryDelayOnTryAgain: FAILOVER_RETRY_MS,
    maxRedirections: FAILOVER_RETRIES,
    clusterRetryStrategy: (times) => Math.min(200 * times, 2000),
  });
}

function decode(text: string): string | undefined {
  if (text === '') return undefined;
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** True when `redis` talks to a Redis Cluster. */
export function isCluster(redis: QueueRedis): redis is Cluster {
  return redis instanceof Cluster;
}
