import { isRedisUrl } from '@agent/cache';
import { ConfigError } from '@agent/protocol';
import { Redis } from 'ioredis';

/** Throws a `ConfigError` unless `url` is a `redis://` or `rediss://` URL with a host. */
export function checkQueueUrl(url: unknown, field = 'queue'): string {
  if (typeof url !== 'string' || !isRedisUrl(url)) {
    // A URL that does not parse may still hold a password: it is never quoted.
    throw new ConfigError({
      field,
      value: '[redacted]',
      allowed: 'redis://[:password@]host[:port][/db] or rediss://...',
      message: `${field}: expected redis://host:port (or rediss://[:password@]host:port/db); the value given is not such a URL`,
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
