// Runs the bursts: every contender's server in a process of its own, one load client process,
// the contenders alternated within each run (the order flipped every run).
import { fileURLToPath } from 'node:url';
import { BENCH_DIR, CONTENDER_NODE_FLAGS } from '../agent-loop/paths.js';
import { type ChildProcessCalls, forkChild } from '../harness/child-process.js';
import { percentile } from '../harness/measure.js';
import { CONTENDERS } from './contenders.js';
import type { ClientCommand, ClientReply, ServedCommand, ServedReply } from './ipc.js';
import { SCRIPTED_MS } from './script.js';

export const SERVED_SCRIPT = fileURLToPath(new URL('./served-process.ts', import.meta.url));
export const CLIENT_SCRIPT = fileURLToPath(new URL('./load-client.ts', import.meta.url));

export interface Plan {
  concurrencies: readonly number[];
  runs: number;
  /** Extra Node flags of the served processes (e.g. --cpu-prof when profiling). */
  servedFlags?: readonly string[];
}

/** One burst of one contender. */
export interface BurstFigures {
  contender: string;
  concurrency: number;
  run: number;
  ok: number;
  failed: number;
  lost: number;
  firstProblem?: string;
  /** Wall ms minus the scripted time, per completed request. */
  addedP50: number;
  addedP99: number;
  /** Peak growth over the gc'd baseline during the burst, per in-flight session. */
  heapKbPerSession: number;
  rssKbPerSession: number;
  /** The server process's CPU (user + system) over the burst, per session. */
  cpuMsPerSession: number;
  /** Heap over the baseline, garbage collected while every session of a second burst streams, per session. */
  retainedKbPerSession: number;
  /** The sessions in flight when the retained heap was weighed (the concurrency, unless some finished early). */
  retainedInFlight: number;
}

export type Served = ChildProcessCalls<ServedCommand, ServedReply>;
export type Client = ChildProcessCalls<ClientCommand, ClientReply>;

/** One contender's server under one burst size. */
interface Target {
  client: Client;
  served: Served;
  url: string;
  expected: string;
  concurrency: number;
}

/** A timed burst: latency, peak memory growth, CPU. */
async function timedBurst({ client, served, url, expected, concurrency }: Target) {
  await served.call({ type: 'memory-start' });
  const outcome = await client.call({ type: 'burst', url, concurrency, expected });
  const memory = await served.call({ type: 'memory-stop' });
  return { outcome, memory };
}

/** A second burst, its latency not used: the heap weighed after a gc while all its sessions stream. */
async function retainedBurst({ client, served, url, expected, concurrency }: Target) {
  await served.call({ type: 'memory-start' });
  const outcome = client.call({ type: 'burst', url, concurrency, expected });
  const heap = await served.call({ type: 'retained', count: concurrency });
  await served.call({ type: 'memory-stop' });
  return { outcome: await outcome, heap };
}

async function burst(target: Target, contender: string, run: number): Promise<BurstFigures> {
  const { outcome, memory } = await timedBurst(target);
  const second = await retainedBurst(target);
  const { concurrency } = target;
  const added = outcome.wallMs.map((ms) => ms - SCRIPTED_MS).sort((a, b) => a - b);
  const firstProblem = outcome.firstProblem ?? second.outcome.firstProblem;
  return {
    contender,
    concurrency,
    run,
    ok: outcome.wallMs.length + second.outcome.wallMs.length,
    failed: outcome.failed + second.outcome.failed,
    lost: outcome.lost + second.outcome.lost,
    ...(firstProblem === undefined ? {} : { firstProblem }),
    addedP50: percentile(added, 50),
    addedP99: percentile(added, 99),
    heapKbPerSession: memory.peakHeapGrowth / concurrency / 1024,
    rssKbPerSession: memory.peakRssGrowth / concurrency / 1024,
    cpuMsPerSession: memory.cpuMs / concurrency,
    retainedKbPerSession: second.heap.heapGrowth / Math.max(1, second.heap.inFlight) / 1024,
    retainedInFlight: second.heap.inFlight,
  };
}

export async function runBursts(plan: Plan): Promise<BurstFigures[]> {
  const max = Math.max(...plan.concurrencies);
  const client: Client = await forkChild(CLIENT_SCRIPT, [], {
    label: 'headend-load: client',
    cwd: BENCH_DIR,
    execArgv: CONTENDER_NODE_FLAGS,
  });
  const servers = new Map<string, { served: Served; url: string }>();
  try {
    for (const contender of CONTENDERS) {
      const served: Served = await forkChild(SERVED_SCRIPT, [contender.id, String(max)], {
        label: `headend-load: ${contender.id}`,
        cwd: BENCH_DIR,
        execArgv: [...CONTENDER_NODE_FLAGS, ...(plan.servedFlags ?? [])],
      });
      const { url } = await served.call({ type: 'url' });
      servers.set(contender.id, { served, url });
      // Warm-up, unmeasured: the code paths compiled, the heap grown once.
      await burst(
        { client, served, url, expected: contender.expected, concurrency: Math.min(max, 50) },
        contender.id,
        -1,
      );
    }
    const figures: BurstFigures[] = [];
    for (const concurrency of plan.concurrencies) {
      for (let run = 0; run < plan.runs; run++) {
        const order = run % 2 === 0 ? CONTENDERS : [...CONTENDERS].reverse();
        for (const contender of order) {
          const { served, url } = servers.get(contender.id)!;
          figures.push(
            await burst(
              { client, served, url, expected: contender.expected, concurrency },
              contender.id,
              run,
            ),
          );
        }
      }
    }
    return figures;
  } finally {
    await client.exit();
    for (const { served } of servers.values()) await served.exit();
  }
}
