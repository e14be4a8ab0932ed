import { startRedisCluster } from '@agent/testkit';
import { expect, test } from 'vitest';
import { openRedisSessionStore } from '../src/index.js';
import { testSnapshot } from './helpers.js';

test('a master SIGKILLed while sessions are written: after the failover every acknowledged session loads intact', async () => {
  const cluster = await startRedisCluster({ masters: 3, replicasPerMaster: 1 });
  const store = await openRedisSessionStore({
    url: cluster.url,
    ttlMs: 60 * 60 * 1000,
    timeoutMs: 3000,
    snapshotKeys: { current: 'failover-test-key-0123456789abcdef' },
  });
  try {
    const acknowledged = new Map<string, number>();
    let stop = false;
    // Writers save sessions on every master until told to stop; only resolved saves count.
    const writer = async (n: number) => {
      for (let i = 0; !stop; i++) {
        const id = `w${n}-s${i % 40}`;
        const turn = i + 1;
        try {
          await store.save(testSnapshot(id, { turn }));
          acknowledged.set(id, turn);
        } catch {
          // A write that failed (its master down, no replica confirmed it) was never acknowledged.
        }
      }
    };
    const writing = [writer(0), writer(1), writer(2), writer(3)];
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const killed = await cluster.killMaster('w0-s0');
    await cluster.waitForFailover();
    await new Promise((resolve) => setTimeout(resolve, 500));
    stop = true;
    await Promise.all(writing);
    expect(acknowledged.size).toBeGreaterThan(40);
    expect(killed.alive).toBe(false);
    for (const [id, turn] of acknowledged) {
      // A later save may have reached the store without being acknowledged (it failed while
      // waiting for a replica): never an older turn than acknowledged, always a whole snapshot.
      const loaded = await store.load(id);
      expect(loaded?.turn, id).toBeGreaterThanOrEqual(turn);
      expect(loaded, id).toEqual(testSnapshot(id, { turn: loaded?.turn }));
    }
  } finally {
    await store.close();
    await cluster.close();
  }
}, 120_000);
