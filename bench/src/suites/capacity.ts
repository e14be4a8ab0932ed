// Issue 42's capacity model, measured: a real redis-server, `agent-server --queue` (one face,
// worker processes of the BUILT apps/server), the testkit model server in the bench's own
// process; streaming sessions of a tool call per turn and a report of a known number of
// tokens. Redis commands, bytes and CPU per turn, worker CPU per turn and face CPU per token,
// each the difference over a measured window; and one Redis server's ceiling (redis-benchmark).

import { type CeilingRun, redisCeiling } from '../capacity/redis-ceiling.js';
import { type CapacityScript, capacityAnswer } from '../capacity/script.js';
import {
  ceilingTable,
  commandsTable,
  perCoreTable,
  perTurnFigures,
  perTurnTable,
} from '../capacity/tables.js';
import { measureWindow, type WindowFigures } from '../capacity/window.js';
import type { BenchCheck, BenchSuite, SuiteResult } from '../harness/types.js';
import { type Fleet, startFleet } from '../queue-soak/fleet.js';

const SCRIPT: CapacityScript = { turns: 5, reportTokens: 50, delayMs: 50, tokenDelayMs: 10 };

interface Scale {
  workers: number;
  /** Sessions each worker runs at once. */
  concurrency: number;
  clients: number;
  warmupSessions: number;
  sessions: number;
  runs: number;
  ceilingRequests: number;
}

const FULL: Scale = {
  workers: 2,
  concurrency: 16,
  clients: 16,
  warmupSessions: 16,
  sessions: 60,
  runs: 5,
  ceilingRequests: 50_000,
};
const QUICK: Scale = {
  workers: 1,
  concurrency: 4,
  clients: 2,
  warmupSessions: 2,
  sessions: 4,
  runs: 1,
  ceilingRequests: 2_000,
};

async function measure(
  fleet: Fleet,
  scale: Scale,
): Promise<{ windows: WindowFigures[]; ceiling: CeilingRun[] }> {
  const window = (prefix: string, sessions: number) =>
    measureWindow(fleet, { prefix, sessions, clients: scale.clients, script: SCRIPT });
  // Warm-up: JIT, connections and BullMQ's scripts loaded before anything is counted.
  const warmup = await window('9', scale.warmupSessions);
  const windows: WindowFigures[] = [];
  for (let run = 1; run <= scale.runs; run++) windows.push(await window(String(run), scale.sessions));
  const ceiling = await redisCeiling(Number(new URL(fleet.redisUrl).port), scale.ceilingRequests);
  return { windows: [warmup, ...windows], ceiling };
}

function checksOf(windows: readonly WindowFigures[], ceiling: readonly CeilingRun[]): BenchCheck[] {
  const sessions = windows.reduce((sum, w) => sum + w.sessions, 0);
  const completed = windows.reduce((sum, w) => sum + w.completed, 0);
  const problems = windows.flatMap((w) => w.problems).slice(0, 3);
  // A job whose lock expired under load moves to another worker and runs its turn again.
  const reruns = windows.reduce((sum, w) => sum + w.rerunTurns, 0);
  return [
    {
      name: 'every session streamed its whole report and ended as an answer',
      ok: completed === sessions,
      detail: `${completed} of ${sessions}, ${reruns} turns re-run${problems.length > 0 ? `: ${problems.join(' | ')}` : ''}`,
    },
    {
      name: 'Redis saw the session traffic (commands and bytes in every window)',
      ok: windows.every((w) => Object.keys(w.redis.commands).length > 0 && w.redis.netInputBytes > 0),
    },
    {
      name: 'redis-benchmark measured every command of the ceiling',
      ok: ceiling.every((r) => Number.isFinite(r.wallPerSecond) && r.wallPerSecond > 0),
      detail: ceiling.map((r) => `${r.command} ${Math.round(r.wallPerSecond)}/s`).join(', '),
    },
  ];
}

const NOTES = [
  `Each session: ${SCRIPT.turns} turns (${SCRIPT.turns - 1} agent__task_status tool calls, then a report streamed in ${SCRIPT.reportTokens} text deltas, the "tokens", ${SCRIPT.tokenDelayMs} ms apart), ${SCRIPT.delayMs} ms scripted model latency per turn, through the face's OpenAI endpoint (stream: true); the whole report is checked.`,
  'Redis figures are INFO differences over each window: commandstats counts commands run inside BullMQ Lua scripts (EVALSHA) and inside MULTI as their own calls too, so "commands per turn" is the work Redis did, more than the round trips clients made. Bytes include two INFO replies per window (a few KB).',
  "Worker and face CPU come from /proc/<pid>/stat (utime + stime, 10 ms ticks) of those processes; face CPU per token divides ALL of the face's CPU by the tokens streamed (it also accepts the request, enqueues the job and follows its stream), so it is an upper bound.",
  "Requests per Redis CPU-second: redis-benchmark's requests over the server's own CPU during it (INFO cpu), steadier than wall-clock rates on a shared machine; the session mix's own ceiling is 1000 / (Redis CPU ms per turn) turns per core-second.",
  'The windows\' medians exclude the warm-up window; the completion check covers it too. docs/deployment.md ("Capacity model") turns these figures into what 10,000 concurrent sessions need.',
];

export const capacitySuite: BenchSuite = {
  id: 'capacity',
  title: 'Capacity: Redis, worker and face cost per session turn',
  description: `Real redis-server, agent-server --queue with one face and ${FULL.workers} worker processes (concurrency ${FULL.concurrency}), the testkit model server in the bench process; ${FULL.runs} windows of ${FULL.sessions} streaming sessions, ${FULL.clients} at a time. Per turn: Redis commands by command, bytes and server CPU (INFO), worker CPU; face CPU per streamed token; one Redis server's ceiling by redis-benchmark.`,
  async run({ quick }): Promise<SuiteResult> {
    const scale = quick ? QUICK : FULL;
    const fleet = await startFleet({
      workers: scale.workers,
      concurrency: scale.concurrency,
      delayMs: SCRIPT.delayMs,
      queueName: 'capacity',
      faces: ['rest', 'openai'],
      script: (session, turn) => capacityAnswer(session, turn, SCRIPT),
    });
    let measured: { windows: WindowFigures[]; ceiling: CeilingRun[] };
    try {
      measured = await measure(fleet, scale);
    } finally {
      await fleet.close();
    }
    const { windows, ceiling } = measured;
    const counted = windows.slice(1);
    const figures = perTurnFigures(counted);
    return {
      tables: [
        perTurnTable(figures, counted.length),
        commandsTable(counted),
        ceilingTable(ceiling),
        perCoreTable(figures, SCRIPT.reportTokens / SCRIPT.turns),
      ],
      notes: NOTES,
      checks: checksOf(windows, ceiling),
      raw: { script: SCRIPT, scale, figures, windows, ceiling },
    };
  },
};
