// The processes of the queue soak: a real redis-server, the testkit model server (scripted
// latency, multi-turn sessions), one agent-server face on the queue and worker processes of the
// BUILT agent-server (apps/server/dist), each killed and restarted at will.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RecordedRequest, ScriptedAnswer } from '@agent/testkit';
import {
  finalReport,
  type ModelServer,
  type RedisServer,
  startModelServer,
  startRedisServer,
} from '@agent/testkit';

const SERVER_BIN = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  '..',
  'apps',
  'server',
  'dist',
  'agent-server.js',
);

/** Turns of every scripted session: task-status turns, then the report. */
export const SESSION_TURNS = 3;

export interface Fleet {
  face: string;
  /** Requests per `session#turn`. */
  turnRuns: Map<string, number>;
  /** The workers (`w<slot>.<start>`) that sent each `session#turn`'s requests. */
  turnWorkers: Map<string, Set<string>>;
  workers: (ChildProcess | undefined)[];
  startWorker(slot: number): Promise<void>;
  /** Kills the slot's worker; its name, or undefined when the slot was empty. */
  killWorker(slot: number): Promise<string | undefined>;
  jobsLeft(): Promise<number>;
  close(): Promise<void>;
}

function waitForLine(child: ChildProcess, pattern: RegExp): Promise<string> {
  let said = '';
  return new Promise((resolve, reject) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      said += chunk.toString();
      const match = pattern.exec(said);
      if (match) resolve(match[1] ?? match[0]);
    });
    child.on('exit', (code) => reject(new Error(`agent-server exited with ${code}: ${said}`)));
  });
}

export async function startFleet(options: {
  workers: number;
  concurrency: number;
  delayMs: number;
  queueName: string;
}): Promise<Fleet> {
  const dir = mkdtempSync(join(tmpdir(), 'queue-soak-'));
  const redis: RedisServer = await startRedisServer();
  const turnRuns = new Map<string, number>();
  const turnWorkers = new Map<string, Set<string>>();
  const handler = (request: RecordedRequest): ScriptedAnswer => {
    const user = request.messages.find((m) => m.role === 'user' && String(m.content).includes('soak-'));
    const session = /soak-\d+/.exec(String(user?.content ?? ''))?.[0] ?? 'unknown';
    const turn = request.messages.filter((m) => m.role === 'assistant').length + 1;
    const key = `${session}#${turn}`;
    turnRuns.set(key, (turnRuns.get(key) ?? 0) + 1);
    // Each worker process sends its name in a header (its own agent.json's provider headers).
    const worker = request.headers?.['x-soak-worker'] ?? 'unknown';
    turnWorkers.set(key, (turnWorkers.get(key) ?? new Set()).add(worker));
    if (turn < SESSION_TURNS) {
      return {
        delayMs: options.delayMs,
        toolCalls: [
          {
            name: 'agent__task_status',
            arguments: { status: 'in-progress', done: '', pending: 'rest', now: `turn ${turn}` },
          },
        ],
      };
    }
    return {
      delayMs: options.delayMs,
      text: String(finalReport(`done ${session}`, { format: 'markdown' }).text),
    };
  };
  const model: ModelServer = await startModelServer({ handler });
  const agentConfig = (headers: Record<string, string>) =>
    JSON.stringify({
      providers: { local: { type: 'openai-compatible', baseURL: `${model.url}/v1`, headers } },
    });
  writeFileSync(join(dir, 'agent.json'), agentConfig({}));
  const agent = join(dir, 'soak.ai');
  writeFileSync(agent, '---\ndescription: The soak agent.\nmodels: [local/m]\n---\nYou work in turns.\n');
  const env = { ...process.env, HOME: dir, XDG_CONFIG_HOME: join(dir, '.config'), AGENT_SERVER_TOKENS: '' };
  const spawnServer = (args: string[]) =>
    spawn(process.execPath, [SERVER_BIN, ...args], { cwd: dir, env, stdio: ['ignore', 'ignore', 'pipe'] });
  const faceProcess = spawnServer([
    '--agent',
    agent,
    '--api',
    '0',
    '--allow-no-auth',
    '--concurrency',
    '1000',
    '--queue',
    redis.url,
    '--queue-name',
    options.queueName,
    '--queue-max',
    '100000',
  ]);
  const face = await waitForLine(faceProcess, /rest listening on (\S+)/);
  const workers: (ChildProcess | undefined)[] = Array.from({ length: options.workers }, () => undefined);
  const names: (string | undefined)[] = [];
  let starts = 0;
  const fleet: Fleet = {
    face,
    turnRuns,
    turnWorkers,
    workers,
    async startWorker(slot) {
      starts += 1;
      const name = `w${slot}.${starts}`;
      const config = join(dir, `${name}.json`);
      writeFileSync(config, agentConfig({ 'x-soak-worker': name }));
      const child = spawnServer([
        'worker',
        '--queue',
        redis.url,
        '--queue-name',
        options.queueName,
        '--agent',
        agent,
        '--agent-config',
        config,
        '--concurrency',
        String(options.concurrency),
        '--lock-seconds',
        '2',
        '--max-moves',
        '50',
      ]);
      await waitForLine(child, /(taking jobs)/);
      workers[slot] = child;
      names[slot] = name;
    },
    async killWorker(slot) {
      const child = workers[slot];
      if (child === undefined) return undefined;
      workers[slot] = undefined;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
      return names[slot];
    },
    async jobsLeft() {
      const { createRunQueue } = await import('@agent/queue');
      const queue = createRunQueue({ url: redis.url, name: options.queueName });
      try {
        const counts = await queue.counts();
        return Object.entries(counts)
          .filter(([state]) => state !== 'completed')
          .reduce((sum, [, n]) => sum + n, 0);
      } finally {
        await queue.close();
      }
    },
    async close() {
      for (let slot = 0; slot < workers.length; slot++) await fleet.killWorker(slot);
      faceProcess.kill('SIGKILL');
      await model.close();
      await redis.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  for (let slot = 0; slot < options.workers; slot++) await fleet.startWorker(slot);
  return fleet;
}

export interface SessionOutcome {
  session: string;
  streaming: boolean;
  ok: boolean;
  moved: boolean;
  startedAt: number;
  endedAt: number;
  problem?: string;
}

/** One client session over REST, streaming (SSE) or not; ok when its report names it. */
export async function runSession(face: string, session: string, streaming: boolean): Promise<SessionOutcome> {
  const startedAt = Date.now();
  try {
    const response = await fetch(`${face}/soak/run`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(streaming ? { accept: 'text/event-stream' } : {}) },
      body: JSON.stringify({ prompt: `${session}: work through your turns` }),
    });
    const body = await response.text();
    let report: string | undefined;
    let moved = false;
    if (streaming) {
      moved = body.includes('session moved to worker');
      const result = /event: result\ndata: (.*)/.exec(body)?.[1];
      report =
        result === undefined
          ? undefined
          : (JSON.parse(result) as { finalReport?: { content?: string } }).finalReport?.content;
    } else {
      report = (JSON.parse(body) as { finalReport?: { content?: string } }).finalReport?.content;
    }
    const ok = response.status === 200 && report === `done ${session}`;
    return {
      session,
      streaming,
      ok,
      moved,
      startedAt,
      endedAt: Date.now(),
      ...(ok ? {} : { problem: `HTTP ${response.status}: ${body.slice(0, 300)}` }),
    };
  } catch (error) {
    return {
      session,
      streaming,
      ok: false,
      moved: false,
      startedAt,
      endedAt: Date.now(),
      problem: String(error),
    };
  }
}
