// One measured window of the capacity suite: `sessions` streaming sessions through the face's
// OpenAI endpoint, `clients` at a time; Redis INFO and the face's and workers' /proc CPU read
// just before and just after, so every figure is what those sessions cost.
import type { Fleet } from '../queue-soak/fleet.js';
import { expectedReport } from '../queue-soak-effects/script.js';
import { runStreamSession, type StreamOutcome } from '../queue-soak-effects/stream-clients.js';
import { processCpuMs } from './process-cpu.js';
import { type RedisSnapshot, redisDiff, redisSnapshot } from './redis-info.js';
import type { CapacityScript } from './script.js';

/** A session that has not finished in this long is counted as failed. */
const SESSION_TIMEOUT_MS = 120_000;

export interface WindowFigures {
  sessions: number;
  /** Sessions whose stream ended as an answer carrying the whole report. */
  completed: number;
  /** The first few failures' problems. */
  problems: string[];
  /** Turns the model was asked for more than once: the job moved to another worker (its lock expired under load). */
  rerunTurns: number;
  turns: number;
  tokens: number;
  seconds: number;
  redis: RedisSnapshot;
  faceCpuMs: number;
  workerCpuMs: number;
}

function cpuOf(pids: readonly number[]): number {
  return pids.reduce((sum, pid) => sum + processCpuMs(pid), 0);
}

function pidsOf(fleet: Fleet): { face: number; workers: number[] } {
  const workers = fleet.workers.map((w) => w?.pid).filter((pid): pid is number => pid !== undefined);
  if (fleet.facePid === undefined || workers.length !== fleet.workers.length) {
    throw new Error('capacity: a face or worker process has no pid (it did not start)');
  }
  return { face: fleet.facePid, workers };
}

async function runSessions(
  fleet: Fleet,
  prefix: string,
  sessions: number,
  clients: number,
  script: CapacityScript,
): Promise<StreamOutcome[]> {
  const faces = { rest: fleet.faces.rest ?? '', openai: fleet.faces.openai ?? '', anthropic: '' };
  const outcomes: StreamOutcome[] = [];
  let next = 0;
  const client = async () => {
    while (next < sessions) {
      const session = `soak-${prefix}${next++}`;
      const expected = expectedReport(session, script.reportTokens);
      const outcome = await runStreamSession('openai', faces, session, expected, SESSION_TIMEOUT_MS);
      outcomes.push(outcome.text === expected ? outcome : { ...outcome, answered: false });
    }
  };
  await Promise.all(Array.from({ length: clients }, client));
  return outcomes;
}

function rerunTurns(fleet: Fleet, outcomes: readonly StreamOutcome[], turns: number): number {
  let reruns = 0;
  for (const { session } of outcomes) {
    for (let turn = 1; turn <= turns; turn++)
      if ((fleet.turnRuns.get(`${session}#${turn}`) ?? 0) > 1) reruns++;
  }
  return reruns;
}

/** Runs one window of `sessions` sessions (named `soak-<prefix><n>`) and what it cost. */
export async function measureWindow(
  fleet: Fleet,
  options: { prefix: string; sessions: number; clients: number; script: CapacityScript },
): Promise<WindowFigures> {
  const { face, workers } = pidsOf(fleet);
  const port = Number(new URL(fleet.redisUrl).port);
  const redisBefore = await redisSnapshot(port);
  const faceBefore = processCpuMs(face);
  const workersBefore = cpuOf(workers);
  const started = Date.now();
  const outcomes = await runSessions(
    fleet,
    options.prefix,
    options.sessions,
    options.clients,
    options.script,
  );
  const seconds = (Date.now() - started) / 1000;
  const faceCpuMs = processCpuMs(face) - faceBefore;
  const workerCpuMs = cpuOf(workers) - workersBefore;
  const redis = redisDiff(redisBefore, await redisSnapshot(port));
  const failed = outcomes.filter((o) => !o.answered);
  return {
    sessions: options.sessions,
    completed: outcomes.length - failed.length,
    problems: failed
      .slice(0, 3)
      .map((o) => `${o.session}: ${o.problem ?? `report differs: ${o.text.slice(0, 120)}`}`),
    rerunTurns: rerunTurns(fleet, outcomes, options.script.turns),
    turns: options.sessions * options.script.turns,
    tokens: options.sessions * options.script.reportTokens,
    seconds,
    redis,
    faceCpuMs,
    workerCpuMs,
  };
}
