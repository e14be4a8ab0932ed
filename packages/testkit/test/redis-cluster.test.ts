import { afterAll, expect, test } from 'vitest';
import { type RedisCluster, startRedisCluster } from '../src/index.js';
import { redisCli } from '../src/redis/redis-cli.js';

const PASSWORD = 'cluster-pw/1';
let cluster: RedisCluster | undefined;
afterAll(async () => {
  await cluster?.close();
});

/** Runs one command on the node on `port` (`-c`: follows MOVED redirections like a cluster client). */
function onNode(port: number, ...args: string[]): Promise<string> {
  return redisCli(port, ['-c', ...args], { password: PASSWORD }).then((out) => out.trim());
}

test('starts 3 masters with a replica each, joined into one cluster that spreads keys over its masters', async () => {
  cluster = await startRedisCluster({ password: PASSWORD });
  expect(cluster.nodes).toHaveLength(6);
  const ports = cluster.nodes.map((node) => node.port);
  expect(new Set(ports).size).toBe(6);
  const [first, ...rest] = ports;
  expect(cluster.url).toBe(
    `redis+cluster://:cluster-pw%2F1@127.0.0.1:${first}?${rest.map((port) => `node=127.0.0.1:${port}`).join('&')}`,
  );
  // A client that follows redirections writes each key on its master and reads it back anywhere.
  const masters = new Set<number>();
  for (const key of ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta']) {
    expect(await onNode(first!, 'set', key, `value of ${key}`)).toBe('OK');
    expect(await onNode(rest[2]!, 'get', key)).toBe(`value of ${key}`);
    const master = await cluster.masterFor(key);
    masters.add(master.port);
    // The master holds the key itself: asked without following redirections it answers.
    expect(await redisCli(master.port, ['get', key], { password: PASSWORD })).toBe(`value of ${key}\n`);
  }
  expect(masters.size).toBeGreaterThan(1);
  expect(await onNode(first!, 'cluster', 'info')).toContain('cluster_size:3');
});

test('killMaster crashes the key owner; waitForFailover returns once a replica serves its slots', async () => {
  const running = cluster!;
  await onNode(running.nodes[0]!.port, 'set', 'survivor', 'kept');
  // Written on the master and acknowledged by its replica before the crash.
  const before = await running.masterFor('survivor');
  expect(await redisCli(before.port, ['wait', '1', '5000'], { password: PASSWORD })).toBe('1\n');
  const killed = await running.killMaster('survivor');
  expect(killed.port).toBe(before.port);
  expect(killed.alive).toBe(false);
  await expect(redisCli(killed.port, ['ping'], { password: PASSWORD })).rejects.toThrow(/refused|failed/i);
  await running.waitForFailover();
  const after = await running.masterFor('survivor');
  expect(after.port).not.toBe(killed.port);
  expect(after.alive).toBe(true);
  expect(await onNode(after.port, 'get', 'survivor')).toBe('kept');
});

test('close stops every node; it is idempotent', async () => {
  const running = cluster!;
  await running.close();
  await running.close();
  expect(running.nodes.every((node) => !node.alive)).toBe(true);
  for (const node of running.nodes) {
    await expect(redisCli(node.port, ['ping'], { password: PASSWORD })).rejects.toThrow();
  }
});

test('fewer than 3 masters is refused with what is allowed', async () => {
  await expect(startRedisCluster({ masters: 2 })).rejects.toThrow(
    'a Redis Cluster needs at least 3 masters and 0 or more replicas each, got 2 and 1',
  );
});

test('a missing redis-server is a clear AgentError, and nothing is left behind', async () => {
  await expect(startRedisCluster({ binary: '/nonexistent/redis-server' })).rejects.toMatchObject({
    code: 'redis_server_unavailable',
    message: 'redis-server is not installed (Debian: apt-get install -y redis-server)',
  });
});
