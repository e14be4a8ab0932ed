// The queue soak's cluster run: the fleet on a real Redis Cluster (3 masters, a replica each,
// on loopback) and the master holding the queue's slot SIGKILLed mid-load, as a crash would.
import { startRedisCluster } from '@agent/testkit';
import { type Fleet, startFleet } from './fleet.js';
import { runLoad, type SessionOutcome } from './session.js';

export interface ClusterFailover {
  sessions: number;
  seconds: number;
  /** From the SIGKILL until a replica served the killed master's slots, every node `cluster_state:ok`. */
  failoverSeconds: number;
  /** Sessions started (their first turn asked) when the master was killed. */
  startedAtKill: number;
  lost: number;
  /** The first few lost sessions' problems. */
  problems: (string | undefined)[];
  /** Turns run more than once (a job whose lock expired during the failover moved). */
  reruns: number;
  /** Jobs still waiting, active, delayed or failed once the load ended (after a short settling wait). */
  jobsLeft: number;
}

/** How long the queue may take to settle after the load (stalled jobs handed out again), ms. */
const SETTLE_MS = 30_000;

export async function clusterFailover(options: {
  sessions: number;
  workers: number;
  concurrency: number;
  delayMs: number;
}): Promise<ClusterFailover> {
  const cluster = await startRedisCluster();
  const queueName = 'soak-cluster';
  let fleet: Fleet;
  try {
    fleet = await startFleet({ ...options, queueName, startRedis: async () => cluster });
  } catch (error) {
    await cluster.close();
    throw error;
  }
  try {
    const started = Date.now();
    let loadEnded = false;
    const load = runLoad(fleet.face, 'c', options.sessions, options.workers * options.concurrency).finally(
      () => {
        loadEnded = true;
      },
    );
    // Mid-load: a third of the sessions have started (the first turns are under way); a load
    // that ended first (its sessions failed) is reported as it is.
    const third = Math.max(1, Math.floor(options.sessions / 3));
    while (!loadEnded && startedSessions(fleet) < third)
      await new Promise((resolve) => setTimeout(resolve, 50));
    const startedAtKill = startedSessions(fleet);
    const killedAt = Date.now();
    await cluster.killMaster(`bull:{${queueName}}:${queueName}:wait`);
    await cluster.waitForFailover();
    const failoverSeconds = (Date.now() - killedAt) / 1000;
    const outcomes = await load;
    const seconds = (Date.now() - started) / 1000;
    return {
      sessions: options.sessions,
      seconds,
      failoverSeconds,
      startedAtKill,
      lost: outcomes.filter((outcome) => !outcome.ok).length,
      problems: problemsOf(outcomes),
      reruns: [...fleet.turnRuns.values()].reduce((sum, runs) => sum + Math.max(0, runs - 1), 0),
      jobsLeft: await settledJobsLeft(fleet),
    };
  } finally {
    await fleet.close();
  }
}

/** Sessions whose first turn the model was asked for. */
function startedSessions(fleet: Fleet): number {
  let count = 0;
  for (const key of fleet.turnRuns.keys()) if (key.endsWith('#1')) count++;
  return count;
}

function problemsOf(outcomes: readonly SessionOutcome[]): (string | undefined)[] {
  return outcomes
    .filter((outcome) => !outcome.ok)
    .slice(0, 5)
    .map((outcome) => outcome.problem);
}

/** Jobs left once the queue settled, or after `SETTLE_MS`: a job whose lock lapsed stays active until the stalled check. */
async function settledJobsLeft(fleet: Fleet): Promise<number> {
  const deadline = Date.now() + SETTLE_MS;
  for (;;) {
    const left = await fleet.jobsLeft();
    if (left === 0 || Date.now() > deadline) return left;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
