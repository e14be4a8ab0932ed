import { isRedisUrl, redactRedisUrl } from '@agent/cache';
import { ConfigError } from '@agent/protocol';
import { Redis } from 'ioredis';

/** Throws a `ConfigError` unless `url` is a `redis://` or `rediss://` URL with a host. */
export function checkQueueUrl(url: unknown, field = 'queue'): string {
  if (typeof url !== 'string' || !isRedisUrl(url)) {
    throw new ConfigError({
      field,
      value: typeof url === 'string' ? redactRedisUrl(url) : url,
      allowed: 'redis://[:password@]host[:port][/db] or rediss://...',
      message: `${field}: expected redis://host:port (or rediss://), not ${
        typeof url === 'string' ? JSON.stringify(redactRedisUrl(url)) : typeof url
      }`,
    });
  }
  return url;
}

/**
 * A Redis connection for the queue. BullMQ needs `maxRetriesPerRequest: null` (its blocking
 * commands wait across reconnects); ioredis reconnects by itself with a bounded backoff, so a
 * Redis restart pauses the queue instead of crashing a process.
 */
export function openQueueRedis(url: string): Redis {
  const redis = new Redis(checkQueueUrl(url), {
    maxRetriesPerRequest: null,
    enableOfflineQueue: true,
    retryStrategy: (times) => Math.min(200 * times, 2000),
  });
  // Errors surface on the commands that fail; the connection's own event would crash the process unheard.
  redis.on('error', () => undefined);
  return redis;
}
