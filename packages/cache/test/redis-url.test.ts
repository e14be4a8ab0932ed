import { describe, expect, test } from 'vitest';
import { isRedisClusterUrl, isRedisUrl, redactRedisUrl, redisClusterNodes } from '../src/index.js';

describe('Redis URLs', () => {
  test('a standalone server and a cluster are both Redis URLs; only the cluster has seed nodes', () => {
    expect(isRedisUrl('redis://127.0.0.1:6379/2')).toBe(true);
    expect(isRedisUrl('rediss://:pw@cache.example:6380')).toBe(true);
    expect(isRedisClusterUrl('redis://127.0.0.1:6379')).toBe(false);
    expect(redisClusterNodes('redis://127.0.0.1:6379')).toBeUndefined();
    const url = 'redis+cluster://:s3cret@127.0.0.1:7000?node=127.0.0.1:7001&node=[::1]:7002';
    expect(isRedisUrl(url)).toBe(true);
    expect(redisClusterNodes(url)).toEqual([
      { host: '127.0.0.1', port: 7000 },
      { host: '127.0.0.1', port: 7001 },
      { host: '::1', port: 7002 },
    ]);
    expect(redisClusterNodes('rediss+cluster://node-a.internal')).toEqual([
      { host: 'node-a.internal', port: 6379 },
    ]);
    expect(redactRedisUrl(url)).not.toContain('s3cret');
  });

  test('a cluster URL with a database, another parameter, a bad seed or too many seeds is refused', () => {
    expect(isRedisUrl('redis+cluster://127.0.0.1:7000/3')).toBe(false);
    expect(isRedisUrl('redis+cluster://127.0.0.1:7000?db=1')).toBe(false);
    expect(isRedisUrl('redis+cluster://127.0.0.1:7000?node=127.0.0.1')).toBe(false);
    expect(isRedisUrl('redis+cluster://127.0.0.1:7000?node=127.0.0.1:70000')).toBe(false);
    expect(isRedisUrl('redis+cluster://127.0.0.1:7000?node=a%20b:1')).toBe(false);
    const many = Array.from({ length: 32 }, (_, i) => `node=127.0.0.1:${7001 + i}`).join('&');
    expect(isRedisUrl(`redis+cluster://127.0.0.1:7000?${many}`)).toBe(false);
    expect(isRedisUrl('memcached://127.0.0.1:11211')).toBe(false);
  });
});
