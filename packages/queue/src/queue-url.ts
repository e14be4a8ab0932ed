import { isRedisUrl, REDIS_URL_ALLOWED } from '@agent/cache';
import { ConfigError } from '@agent/protocol';

/** Throws a `ConfigError` unless `url` is a `redis://`, `rediss://` or Redis Cluster URL. */
export function checkQueueUrl(url: unknown, field = 'queue'): string {
  if (typeof url !== 'string' || !isRedisUrl(url)) {
    // A URL that does not parse may still hold a password: it is never quoted.
    throw new ConfigError({
      field,
      value: '[redacted]',
      allowed: REDIS_URL_ALLOWED,
      message: `${field}: expected ${REDIS_URL_ALLOWED}; the value given is not such a URL`,
    });
  }
  return url;
}
