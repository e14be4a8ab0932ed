import { startRedisCluster, startRedisServer } from '@agent/testkit';
import { expect, test } from 'vitest';
import { CacheError } from '../src/index.js';
import { connectRedisClient, quitRedis } from '../src/redis-client.js';
import { isCluster } from '../src/redis-cluster.js';
import { redactRedisText, redactRedisUrl } from '../src/redis-url.js';

const PASSWORD = 'cluster-secret-77';

const failures = (url: string) => ({
  fail: (what: string, error: unknown) =>
    new CacheError(redactRedisText(`${redactRedisUrl(url)}: ${what}: ${(error as Error).message}`, url)),
  notLoaded: (error: unknown) => new CacheError(`no ioredis: ${(error as Error).message}`),
});

test('a redis+cluster:// URL opens a cluster client that reaches every master with the password; a wrong one is refused unquoted', async () => {
  const cluster = await startRedisCluster({ password: PASSWORD, replicasPerMaster: 0 });
  try {
    const client = await connectRedisClient(cluster.url, 5000, failures(cluster.url));
    try {
      expect(isCluster(client)).toBe(true);
      const keys = Array.from({ length: 30 }, (_, i) => `key-${i}`);
      for (const key of keys) await client.set(key, `value ${key}`);
      for (const key of keys) expect(await client.get(key)).toBe(`value ${key}`);
      const owners = new Set(await Promise.all(keys.map(async (key) => (await cluster.masterFor(key)).port)));
      expect(owners.size).toBe(3);
    } finally {
      await quitRedis(client);
    }
    const wrong = cluster.url.replace(PASSWORD, 'wrong-password-123');
    const error = await connectRedisClient(wrong, 2000, failures(wrong)).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(CacheError);
    expect((error as Error).message).toContain('redis+cluster://:[redacted]@127.0.0.1:');
    expect((error as Error).message).toContain('cannot connect');
    expect((error as Error).message).not.toContain('wrong-password-123');
  } finally {
    await cluster.close();
  }
});

test('a redis:// URL still opens a client of one server', async () => {
  const server = await startRedisServer();
  try {
    const client = await connectRedisClient(server.url, 2000, failures(server.url));
    expect(isCluster(client)).toBe(false);
    expect(await client.ping()).toBe('PONG');
    await quitRedis(client);
  } finally {
    await server.close();
  }
});
