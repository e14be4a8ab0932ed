// agent-server on a Redis queue under load and worker deaths: throughput with 1 and 3 workers
// on the same load, then a soak where a random worker is SIGKILLed every few seconds and
// restarted. Spawns the BUILT agent-server (build apps/server first).
import type { BenchCheck, BenchSuite, BenchTable, SuiteResult } from '../harness/types.js';
import { type ClusterFailover, clusterFailover } from '../queue-soak/cluster-failover.js';
import { type Fleet, SESSION_TURNS, startFleet } from '../queue-soak/fleet.js';
import { type Kill, RandomKiller } from '../queue-soak/random-killer.js';
import { runLoad, type SessionOutcome } from '../queue-soak/session.js';

// Scripted latency must dominate the CPU a session costs (2 shared cores here) for the
// throughput ratio to measure the queue; 200 ms per turn was CPU-bound on this machine.
const DELAY_MS = 1000;
const CONCURRENCY = 4;

interface Throughput {
  perSecond: number;
  /** Sessions answered with their own report. */
  ok: number;
}

async function throughput(workers: number, sessions: number, run: number): Promise<Throughput> {
  const fleet = await startFleet({
    workers,
    concurrency: CONCURRENCY,
    delayMs: DELAY_MS,
    queueName: `tp-${workers}-${run}`,
  });
  try {
    const started = Date.now();
    const outcomes = await runLoad(fleet.face, `${workers}${run}0`, sessions, workers * CONCURRENCY);
    const seconds = (Date.now() - started) / 1000;
    return { perSecond: sessions / seconds, ok: outcomes.filter((o) => o.ok).length };
  } finally {
    await fleet.close();
  }
}

/**
 * Turns run more than once, and turns run more often than excused: a turn may run once more for
 * each kill, while its session was open, of a worker that ran that turn; kills of other workers
 * do not excuse a re-run.
 */
function countReruns(
  outcomes: readonly SessionOutcome[],
  fleet: Fleet,
  kills: readonly Kill[],
): { reruns: number; overRun: number } {
  let overRun = 0;
  let reruns = 0;
  for (const outcome of outcomes) {
    for (let turn = 1; turn <= SESSION_TURNS; turn++) {
      const key = `${outcome.session}#${turn}`;
      const runs = fleet.turnRuns.get(key) ?? 0;
      const ranIt = fleet.turnWorkers.get(key) ?? new Set<string>();
      const killsSuffered = kills.filter(
        (k) => ranIt.has(k.worker) && k.at >= outcome.startedAt && k.at <= outcome.endedAt,
      ).length;
      reruns += Math.max(0, runs - 1);
      if (runs > 1 + killsSuffered) overRun++;
    }
  }
  return { reruns, overRun };
}

interface Soaked {
  sessions: number;
  seconds: number;
  kills: number;
  lost: number;
  /** The first few lost sessions' problems. */
  problems: (string | undefined)[];
  /** Streams told their session moved to another worker. */
  moved: number;
  reruns: number;
  overRun: number;
  jobsLeft: number;
}

async function soak(sessions: number, killEveryMs: number): Promise<Soaked> {
  const fleet = await startFleet({
    workers: 3,
    concurrency: CONCURRENCY,
    delayMs: DELAY_MS,
    queueName: 'soak',
  });
  const killer = new RandomKiller(fleet, { everyMs: { min: killEveryMs, max: killEveryMs } });
  try {
    const started = Date.now();
    const outcomes = await runLoad(fleet.face, '', sessions, 3 * CONCURRENCY);
    const seconds = (Date.now() - started) / 1000;
    await killer.stop();
    const { reruns, overRun } = countReruns(outcomes, fleet, killer.kills);
    return {
      sessions,
      seconds,
      kills: killer.kills.length,
      lost: outcomes.filter((o) => !o.ok).length,
      problems: outcomes
        .filter((o) => !o.ok)
        .slice(0, 5)
        .map((o) => o.problem),
      moved: outcomes.filter((o) => o.moved).length,
      reruns,
      overRun,
      jobsLeft: await fleet.jobsLeft(),
    };
  } finally {
    // Already stopped unless the load failed; then close() ends the workers it would restart.
    void killer.stop();
    await fleet.close();
  }
}

function checksOf(
  throughputSessions: number,
  one: Throughput,
  three: Throughput,
  soaked: Soaked,
): BenchCheck[] {
  return [
    {
      name: 'throughput runs answered every session',
      ok: one.ok === throughputSessions && three.ok === throughputSessions,
      detail: `${one.ok} and ${three.ok} of ${throughputSessions}`,
    },
    {
      name: 'soak: no lost session',
      ok: soaked.lost === 0,
      detail: `${soaked.lost} lost of ${soaked.sessions}${soaked.lost > 0 ? `: ${soaked.problems.join(' | ')}` : ''}`,
    },
    {
      name: 'soak: no turn ran more than once per kill of a worker that was running it',
      ok: soaked.overRun === 0,
      detail: `${soaked.overRun} turns over`,
    },
    {
      name: 'soak: no job left in the queue',
      ok: soaked.jobsLeft === 0,
      detail: `${soaked.jobsLeft} left`,
    },
    { name: 'soak: workers were killed', ok: soaked.kills > 0, detail: `${soaked.kills} kills` },
  ];
}

function clusterChecks(failover: ClusterFailover): BenchCheck[] {
  return [
    {
      name: 'cluster: no session lost when a master is SIGKILLed',
      ok: failover.lost === 0,
      detail: `${failover.lost} lost of ${failover.sessions}${failover.lost > 0 ? `: ${failover.problems.join(' | ')}` : ''}`,
    },
    {
      name: 'cluster: no job left in the queue after the failover',
      ok: failover.jobsLeft === 0,
      detail: `${failover.jobsLeft} left`,
    },
  ];
}

function clusterTable(failover: ClusterFailover): BenchTable {
  return {
    caption: `Redis Cluster (3 masters, a replica each): ${failover.sessions} sessions, 3 workers, the master of the queue's slot SIGKILLed mid-load`,
    columns: [
      'seconds',
      'sessions started at the kill',
      'failover seconds',
      'lost',
      'turns re-run',
      'jobs left',
    ],
    rows: [
      [
        failover.seconds.toFixed(1),
        failover.startedAtKill,
        failover.failoverSeconds.toFixed(1),
        failover.lost,
        failover.reruns,
        failover.jobsLeft,
      ],
    ],
  };
}

function throughputTable(sessions: number, one: Throughput, three: Throughput, ratio: number): BenchTable {
  return {
    caption: `Throughput (${sessions} sessions, ${CONCURRENCY} per worker)`,
    columns: ['workers', 'sessions/s'],
    rows: [
      [1, one.perSecond.toFixed(2)],
      [3, three.perSecond.toFixed(2)],
      ['ratio', `${ratio.toFixed(2)}x`],
    ],
  };
}

function soakTable(soaked: Soaked, killEveryMs: number): BenchTable {
  return {
    caption: `Soak: ${soaked.sessions} sessions, 3 workers, a SIGKILL every ${killEveryMs / 1000} s`,
    columns: [
      'seconds',
      'kills',
      'lost',
      'streams told "moved"',
      'turns re-run',
      're-runs per kill',
      'turns over the limit',
      'jobs left',
    ],
    rows: [
      [
        soaked.seconds.toFixed(1),
        soaked.kills,
        soaked.lost,
        soaked.moved,
        soaked.reruns,
        soaked.kills === 0 ? '-' : (soaked.reruns / soaked.kills).toFixed(2),
        soaked.overRun,
        soaked.jobsLeft,
      ],
    ],
  };
}

const NOTES = [
  "A killed worker's sessions move after its 2 s lock expires (BullMQ stalled-job check) and resume from their last per-turn checkpoint on another worker.",
  'Cluster run: cluster-node-timeout 3 s (the testkit default), so a replica takes over a few seconds after the SIGKILL; writes that must survive (an enqueued job, a result) wait for a replica (WAIT 1), a job whose 2 s lock lapsed meanwhile is handed out again and its re-run finds the result.',
  "The machine is 2 shared cores for the face, three workers, Redis and the model server: the throughput ratio measures the queue's overhead only while scripted latency dominates.",
];

export const queueSoakSuite: BenchSuite = {
  id: 'queue-soak',
  title: 'agent-server on a Redis queue: throughput and worker deaths',
  description: `Real redis-server, one agent-server face (REST) on the queue and worker processes (concurrency ${CONCURRENCY} each); every session takes ${SESSION_TURNS} turns of ${DELAY_MS} ms scripted model latency, half the clients stream (SSE). Throughput: the same load with 1 and 3 workers. Soak: 3 workers, a random one SIGKILLed every few seconds and restarted. Cluster: the same fleet on a 3-master Redis Cluster with a replica each, the master holding the queue's slot SIGKILLed mid-load.`,
  async run({ quick }): Promise<SuiteResult> {
    const throughputSessions = quick ? 24 : 120;
    const soakSessions = quick ? 30 : 300;
    const killEveryMs = quick ? 2500 : 3000;
    const one = await throughput(1, throughputSessions, 1);
    const three = await throughput(3, throughputSessions, 1);
    const ratio = three.perSecond / one.perSecond;
    const soaked = await soak(soakSessions, killEveryMs);
    const failover = await clusterFailover({
      sessions: quick ? 12 : 60,
      workers: 3,
      concurrency: CONCURRENCY,
      delayMs: DELAY_MS,
    });
    const checks = [...checksOf(throughputSessions, one, three, soaked), ...clusterChecks(failover)];
    if (!quick)
      checks.push({
        name: '3 workers give at least 2.4x the sessions per second of 1',
        ok: ratio >= 2.4,
        detail: `${ratio.toFixed(2)}x`,
      });
    return {
      tables: [
        throughputTable(throughputSessions, one, three, ratio),
        soakTable(soaked, killEveryMs),
        clusterTable(failover),
      ],
      notes: NOTES,
      checks,
      raw: { one, three, ratio, soaked, failover },
    };
  },
};
