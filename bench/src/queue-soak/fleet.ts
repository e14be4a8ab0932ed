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

export interface FleetOptions {
  workers: number;
  /** Sessions each worker runs at once. */
  concurrency: number;
  /** Scripted model latency of every turn. */
  delayMs: number;
  queueName: string;
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

/** Which requests the model server saw for each `session#turn`, and from which workers. */
class TurnLog {
  readonly runs = new Map<string, number>();
  readonly workers = new Map<string, Set<string>>();

  /** Counts the request against its session's turn; that session and turn. */
  record(request: RecordedRequest): { session: string; turn: number } {
    const user = request.messages.find((m) => m.role === 'user' && String(m.content).includes('soak-'));
    const session = /soak-\d+/.exec(String(user?.content ?? ''))?.[0] ?? 'unknown';
    const turn = request.messages.filter((m) => m.role === 'assistant').length + 1;
    const key = `${session}#${turn}`;
    this.runs.set(key, (this.runs.get(key) ?? 0) + 1);
    // Each worker process sends its name in a header (its own agent.json's provider headers).
    const worker = request.headers?.['x-soak-worker'] ?? 'unknown';
    this.workers.set(key, (this.workers.get(key) ?? new Set()).add(worker));
    return { session, turn };
  }
}

/** A task-status call on every turn but the last, which reports `done <session>`. */
function soakAnswer(session: string, turn: number, delayMs: number): ScriptedAnswer {
  if (turn < SESSION_TURNS) {
    return {
      delayMs,
      toolCalls: [
        {
          name: 'agent__task_status',
          arguments: { status: 'in-progress', done: '', pending: 'rest', now: `turn ${turn}` },
        },
      ],
    };
  }
  return {
    delayMs,
    text: String(finalReport(`done ${session}`, { format: 'markdown' }).text),
  };
}

/** agent.json with the model server as its one provider, sending `headers` with every request. */
function agentConfig(modelUrl: string, headers: Record<string, string>): string {
  return JSON.stringify({
    providers: { local: { type: 'openai-compatible', baseURL: `${modelUrl}/v1`, headers } },
  });
}

/** Writes the face's agent.json and the soak agent into `dir`; the agent's path. */
function writeSoakAgent(dir: string, modelUrl: string): string {
  writeFileSync(join(dir, 'agent.json'), agentConfig(modelUrl, {}));
  const agent = join(dir, 'soak.ai');
  writeFileSync(agent, '---\ndescription: The soak agent.\nmodels: [local/m]\n---\nYou work in turns.\n');
  return agent;
}

type SpawnServer = (args: string[]) => ChildProcess;

/** Spawns the built agent-server in `dir`, its HOME, with no API tokens. */
function serverSpawner(dir: string): SpawnServer {
  const env = { ...process.env, HOME: dir, XDG_CONFIG_HOME: join(dir, '.config'), AGENT_SERVER_TOKENS: '' };
  return (args) =>
    spawn(process.execPath, [SERVER_BIN, ...args], { cwd: dir, env, stdio: ['ignore', 'ignore', 'pipe'] });
}

/** The face: REST on a free port, every run sent to the queue. */
function faceArgs(agent: string, redisUrl: string, queueName: string): string[] {
  return [
    '--agent',
    agent,
    '--api',
    '0',
    '--allow-no-auth',
    '--concurrency',
    '1000',
    '--queue',
    redisUrl,
    '--queue-name',
    queueName,
    '--queue-max',
    '100000',
  ];
}

/** A worker with a 2 s job lock, so a killed worker's sessions move soon. */
function workerArgs(agent: string, config: string, redisUrl: string, options: FleetOptions): string[] {
  return [
    'worker',
    '--queue',
    redisUrl,
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
  ];
}

/** What the fleet runs on, started before its workers. */
interface FleetBase {
  dir: string;
  redis: RedisServer;
  model: ModelServer;
  agent: string;
  spawnServer: SpawnServer;
  faceProcess: ChildProcess;
}

class SoakFleet implements Fleet {
  readonly turnRuns: Map<string, number>;
  readonly turnWorkers: Map<string, Set<string>>;
  readonly workers: (ChildProcess | undefined)[];
  private readonly names: (string | undefined)[] = [];
  private starts = 0;

  constructor(
    readonly face: string,
    turns: TurnLog,
    private readonly base: FleetBase,
    private readonly options: FleetOptions,
  ) {
    this.turnRuns = turns.runs;
    this.turnWorkers = turns.workers;
    this.workers = Array.from({ length: options.workers }, () => undefined);
  }

  async startWorker(slot: number): Promise<void> {
    const { dir, redis, agent, spawnServer } = this.base;
    this.starts += 1;
    const name = `w${slot}.${this.starts}`;
    const config = join(dir, `${name}.json`);
    writeFileSync(config, agentConfig(this.base.model.url, { 'x-soak-worker': name }));
    const child = spawnServer(workerArgs(agent, config, redis.url, this.options));
    await waitForLine(child, /(taking jobs)/);
    this.workers[slot] = child;
    this.names[slot] = name;
  }

  async killWorker(slot: number): Promise<string | undefined> {
    const child = this.workers[slot];
    if (child === undefined) return undefined;
    this.workers[slot] = undefined;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    return this.names[slot];
  }

  async jobsLeft(): Promise<number> {
    const { createRunQueue } = await import('@agent/queue');
    const queue = createRunQueue({ url: this.base.redis.url, name: this.options.queueName });
    try {
      const counts = await queue.counts();
      return Object.entries(counts)
        .filter(([state]) => state !== 'completed')
        .reduce((sum, [, n]) => sum + n, 0);
    } finally {
      await queue.close();
    }
  }

  async close(): Promise<void> {
    for (let slot = 0; slot < this.workers.length; slot++) await this.killWorker(slot);
    this.base.faceProcess.kill('SIGKILL');
    await this.base.model.close();
    await this.base.redis.close();
    rmSync(this.base.dir, { recursive: true, force: true });
  }
}

export async function startFleet(options: FleetOptions): Promise<Fleet> {
  const dir = mkdtempSync(join(tmpdir(), 'queue-soak-'));
  const redis: RedisServer = await startRedisServer();
  const turns = new TurnLog();
  const model: ModelServer = await startModelServer({
    handler: (request) => {
      const { session, turn } = turns.record(request);
      return soakAnswer(session, turn, options.delayMs);
    },
  });
  const agent = writeSoakAgent(dir, model.url);
  const spawnServer = serverSpawner(dir);
  const faceProcess = spawnServer(faceArgs(agent, redis.url, options.queueName));
  const face = await waitForLine(faceProcess, /rest listening on (\S+)/);
  const fleet = new SoakFleet(face, turns, { dir, redis, model, agent, spawnServer, faceProcess }, options);
  for (let slot = 0; slot < options.workers; slot++) await fleet.startWorker(slot);
  return fleet;
}
