import { createRunQueue } from '@agent/queue';
import { type RedisCluster, startRedisCluster } from '@agent/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runClient, TURNS } from './queue-fleet.js';
import { until, useQueueFleet } from './queue-harness.js';

// Issue 42: the run queue on a real Redis Cluster (3 masters, 3 replicas on loopback). Faces and
// workers take the cluster URL; a master dying mid-load (SIGKILL) loses no session: its replica
// takes over, and every client gets its report exactly once.
const { fleet } = useQueueFleet();
let cluster: RedisCluster;
beforeAll(async () => {
  cluster = await startRedisCluster();
}, 60_000);
afterAll(async () => {
  await cluster?.close();
});

/** The queue's counts on the cluster once no job waits or runs; throws with them after `ms`. */
async function settled(name: string, ms = 60_000): Promise<Record<string, number>> {
  const queue = createRunQueue({ url: cluster.url, name });
  try {
    for (const deadline = Date.now() + ms; ; ) {
      const counts = await queue.counts();
      if ((counts.waiting ?? 0) + (counts.active ?? 0) + (counts.delayed ?? 0) === 0) return counts;
      if (Date.now() > deadline)
        throw new Error(`jobs still in the queue after ${ms} ms: ${JSON.stringify(counts)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    await queue.close();
  }
}

const jobs = (count: number) => Array.from({ length: count }, (_, at) => `job-${at}`);

describe('the run queue on a Redis Cluster', () => {
  it('a face and two workers on redis+cluster:// run plain and streaming sessions to their reports', async () => {
    const { baseUrl, name } = await fleet(2, { url: cluster.url, delayMs: 50 });
    const outcomes = await Promise.all(jobs(6).map((job, at) => runClient(baseUrl, job, at % 2 === 0)));
    expect(outcomes.map((outcome) => outcome.report)).toEqual(jobs(6).map((job) => `report of ${job}`));
    for (const outcome of outcomes.filter((_, at) => at % 2 === 0)) {
      expect(outcome.events.filter((event) => event === 'result')).toHaveLength(1);
    }
    expect(await settled(name)).toMatchObject({ waiting: 0, active: 0, failed: 0 });
  }, 120_000);

  // Under load this once failed with ioredis's "Connection in subscriber mode": a SUBSCRIBE raced
  // the new cluster subscriber's ready check after the failover (the notifier now tries again).
  it("SIGKILL of the master holding the queue's slot mid-load: every session ends with its report exactly once, none lost", async () => {
    const { baseUrl, name, model, face, workers } = await fleet(2, { url: cluster.url, delayMs: 200 });
    const batch = jobs(12);
    const answered = new Set<string>();
    const clients = Promise.all(
      batch.map((job, at) =>
        runClient(baseUrl, job, at % 3 !== 0).then((outcome) => {
          answered.add(job);
          return outcome;
        }),
      ),
    );
    // A client left without an answer fails the test with what the fleet said, not a bare timeout.
    let phase = 'sessions starting';
    const unanswered = async () => {
      const queue = createRunQueue({ url: cluster.url, name });
      const counts = await withDeadline(queue.counts(), 10_000, async () => 'the counts did not come').then(
        (known) => JSON.stringify(known),
        (error: unknown) => String(error),
      );
      void queue.close();
      const stderr = [face, ...workers].map((process_) => process_.stderr()).join('\n');
      const left = batch.filter((job) => !answered.has(job)).join(', ');
      return `${phase}; unanswered: ${left}; queue: ${counts}\n${stderr}`;
    };
    const failover = async () => {
      // Mid-load: every session has started, none has finished (a session that ended without
      // starting fails the assertions below with its error instead of stalling this wait).
      await until(
        () => answered.size === batch.length || batch.every((job) => model.turnsRun.has(`${job}#1`)),
      );
      phase = 'killing the master';
      const killed = await cluster.killMaster(`bull:{${name}}:${name}:wait`);
      expect(killed.alive).toBe(false);
      phase = 'waiting for the failover';
      await cluster.waitForFailover();
      phase = 'after the failover';
      return clients;
    };
    const outcomes = await withDeadline(failover(), 150_000, unanswered);
    expect(outcomes.map((outcome) => [outcome.job, outcome.status, outcome.report ?? outcome.error])).toEqual(
      batch.map((job) => [job, 200, `report of ${job}`]),
    );
    for (const outcome of outcomes.filter((_, at) => at % 3 !== 0)) {
      expect(outcome.events.filter((event) => event === 'result')).toHaveLength(1);
    }
    // Every session reached its last turn; none failed or was left behind in the queue.
    for (const job of batch) expect(model.turnsRun.get(`${job}#${TURNS}`)).toBeGreaterThanOrEqual(1);
    expect(await settled(name)).toMatchObject({ waiting: 0, active: 0, delayed: 0, failed: 0 });
  }, 240_000);
});

/** `promise`, or a rejection with `explain()`'s text once `ms` passed without it settling. */
async function withDeadline<T>(promise: Promise<T>, ms: number, explain: () => Promise<string>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      void explain().then(
        (text) => reject(new Error(`no answer within ${ms} ms: ${text}`)),
        (error: unknown) => reject(new Error(`no answer within ${ms} ms (and no counts: ${String(error)})`)),
      );
    }, ms);
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
