import { createRunQueue } from '@agent/queue';
import {
  type RecordedRequest,
  type RedisServer,
  type ScriptedAnswer,
  startRedisServer,
} from '@agent/testkit';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { type AgentDir, agentDir, type RunningServer, startServer } from './helpers.js';
import { multiTurnModel, startWorkerProcess, type WorkerProcess } from './queue-fleet.js';

export interface FleetOptions {
  delayMs?: number;
  holdFirstRunOfTurn?: number;
  /** Every run of that turn hangs until `model.release()`. */
  holdEveryRunOfTurn?: number;
  /** Another model than the multi-turn one (its handler); `model.turnsRun` then stays empty. */
  handler?: (request: RecordedRequest) => ScriptedAnswer | Promise<ScriptedAnswer>;
  /** Writes more files (agent files, agent.json) into the agent dir before anything starts. */
  prepare?: (dir: AgentDir) => void;
  workerArgs?: string[];
  faceArgs?: string[];
  /** Headends the face opens (one per `--api` / `--openai` / ... flag; default 1). */
  headends?: number;
  url?: string;
}

/**
 * The queue tests' shared parts: one real redis-server for the file, and fleets on it (a
 * scripted model, agent files, a face on the queue, worker processes), all stopped after each test.
 */
export function useQueueFleet() {
  let redis: RedisServer;
  let queueCount = 0;
  const started: { kill(): void; exited: Promise<unknown> }[] = [];
  const dirs: AgentDir[] = [];

  beforeAll(async () => {
    redis = await startRedisServer();
  });
  afterEach(async () => {
    await stopAll();
    for (const dir of dirs.splice(0)) await dir.close();
  });
  afterAll(async () => {
    await redis.close();
  });

  async function stopAll(): Promise<void> {
    for (const process_ of started.splice(0)) {
      process_.kill();
      await process_.exited;
    }
  }

  async function makeDir(handler: FleetOptions['handler'] & {}, prepare?: FleetOptions['prepare']) {
    const dir = await agentDir(handler, ['echo']);
    dirs.push(dir);
    prepare?.(dir);
    return dir;
  }

  /** A model with scripted latency, agent files, a face on the queue and `workers` worker processes. */
  async function fleet(workers: number, options: FleetOptions = {}) {
    const url = options.url ?? redis.url;
    queueCount += 1;
    const name = `e2e-${process.pid}-${queueCount}`;
    const model = multiTurnModel(options.delayMs ?? 300, {
      ...(options.holdFirstRunOfTurn === undefined ? {} : { holdFirstRunOfTurn: options.holdFirstRunOfTurn }),
      ...(options.holdEveryRunOfTurn === undefined ? {} : { holdEveryRunOfTurn: options.holdEveryRunOfTurn }),
    });
    const dir = await makeDir(options.handler ?? model.handler, options.prepare);
    const startFace = async (
      extraArgs: string[] = options.faceArgs ?? [],
      headends = options.headends ?? 1,
    ) => {
      const args = ['--agent', dir.files[0]!, '--api', '0', '--allow-no-auth', '--queue', url];
      const face: RunningServer = await startServer(
        [...args, '--queue-name', name, ...extraArgs],
        dir.dir,
        headends,
      );
      started.push({ kill: () => face.child.kill('SIGKILL'), exited: face.exited });
      return face;
    };
    const face = await startFace();
    const workerArgs = ['--queue', url, '--queue-name', name, '--lock-seconds', '1'];
    const spawnWorker = async (
      extraArgs: string[] = options.workerArgs ?? [],
      { cwd = dir.dir, agent = dir.files[0]! }: { cwd?: string; agent?: string } = {},
    ) => {
      const worker = await startWorkerProcess([...workerArgs, '--agent', agent, ...extraArgs], cwd);
      started.push({ kill: () => worker.child.kill('SIGKILL'), exited: worker.exited });
      return worker;
    };
    const running: WorkerProcess[] = [];
    for (let at = 0; at < workers; at++) running.push(await spawnWorker());
    return { name, model, dir, face, startFace, workers: running, spawnWorker, baseUrl: face.urls.rest! };
  }

  /** The queue's counts once no job waits or runs (a client has its result a moment before its job completes). */
  async function jobsLeft(name: string): Promise<Record<string, number>> {
    const queue = createRunQueue({ url: redis.url, name });
    try {
      for (;;) {
        const counts = await queue.counts();
        if ((counts.waiting ?? 0) + (counts.active ?? 0) + (counts.delayed ?? 0) === 0) return counts;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    } finally {
      await queue.close();
    }
  }

  return {
    redis: () => redis,
    fleet,
    makeDir,
    jobsLeft,
    stopAll,
    track: (process_: { kill(): void; exited: Promise<unknown> }) => started.push(process_),
  };
}

/** Waits until `check` holds (polling; the test's own timeout bounds it). */
export async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 25));
}
