import { Redis } from 'ioredis';
import { expect, test } from 'vitest';
import { createCache, openRedisBackend } from '../src/index.js';
import { fakeClock, sharedCluster } from './helpers.js';

/** The keys under `prefix` that each live node of the cluster holds itself. */
async function keysPerNode(prefix: string): Promise<number[]> {
  const cluster = await sharedCluster();
  const counts: number[] = [];
  for (const node of cluster.nodes.filter((candidate) => candidate.alive)) {
    const client = new Redis(node.url, { lazyConnect: true });
    try {
      await client.connect();
      if ((await client.role())[0] === 'master') counts.push((await client.keys(`${prefix}*`)).length);
    } finally {
      client.disconnect();
    }
  }
  return counts;
}

test('on a cluster a large cache is spread over every master, keeps its entry bound and drops the least recent of each bucket', async () => {
  const cluster = await sharedCluster();
  const clock = fakeClock();
  const cache = createCache(
    await openRedisBackend({ url: cluster.url, maxEntries: 1024, prefix: 'spread:', timeoutMs: 5000 }),
    { now: clock.now },
  );
  try {
    const keys = Array.from({ length: 3000 }, (_, i) => `entry-${i}`);
    for (const key of keys) await cache.set(key, { key }, 60_000);
    const size = await cache.size();
    expect(size).toBeLessThanOrEqual(1024);
    expect(size).toBeGreaterThan(900);
    // The newest entries are kept, the very first ones were evicted.
    for (const key of keys.slice(-20)) expect((await cache.get(key))?.value).toEqual({ key });
    for (const key of keys.slice(0, 20)) expect(await cache.get(key)).toBeUndefined();
    const perMaster = await keysPerNode('spread:');
    expect(perMaster).toHaveLength(3);
    for (const count of perMaster) expect(count).toBeGreaterThan(0);
    // Expired entries make room: after their TTL, new writes sweep them out of every bucket.
    clock.advance(60_001);
    for (const key of keys.slice(0, 200)) await cache.set(key, 'fresh', 60_000);
    for (const key of keys.slice(-20)) expect(await cache.get(key)).toBeUndefined();
    expect((await cache.get('entry-0'))?.value).toBe('fresh');
    expect(await cache.delete('entry-1')).toBe(true);
    expect(await cache.get('entry-1')).toBeUndefined();
    await cache.clear();
    expect(await cache.size()).toBe(0);
    expect(await keysPerNode('spread:')).toEqual([0, 0, 0]);
  } finally {
    await cache.close();
  }
});
