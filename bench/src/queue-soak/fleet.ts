// The processes of the queue soak: a real redis-server (or a Redis Cluster), the testkit model server (scripted
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

/** The faces a fleet can serve, each on its own free port. */
export type FaceName = 'rest' | 'openai' | 'anthropic';

export interface Fleet {
  /** The REST face (`.../v1/agents`). */
  face: string;
  /** Every face served, by name, as its listening line says (`rest`: `.../v1/agents`, `openai`: `.../v1`). */
  faces: Partial<Record<FaceName, string>>;
  redisUrl: string;
  /** The face process's id (its CPU is read from `/proc/<pid>/stat` by the capacity suite). */
  facePid: number | undefined;
  /** Requests per `session#turn`. */
  turnRuns: Map<string, number>;
  /** The workers (`w<slot>.<start>`) that sent each `session#turn`'s requests. */
  turnWorkers: Map<string, Set<string>>;
  /** Every model request: its session, turn, worker and arrival time, in order. */
  modelRequests: readonly ModelRequestSeen[];
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
  /** The faces to serve (default REST alone). */
  faces?: readonly FaceName[];
  /** The model's answer to a session's turn, the `attempt`th time it is asked (default: the task-status script). */
  script?: SoakScript;
  /** More agent.json keys for the worker named (`face` for the face), e.g. `restTools`. */
  extraConfig?: (worker: string) => Record<string, unknown>;
  /** The agent file's `tools` (default none). */
  tools?: readonly string[];
  /** Starts the Redis the fleet runs on (default one `startRedisServer()`), stopped by `close()`. */
  startRedis?: () => Promise<FleetRedis>;
}

/** The Redis a fleet runs on: its URL (`redis://` or `redis+cluster://`) and how to stop it. */
export type FleetRedis = Pick<RedisServer, 'url' | 'close'>;

/** The model's answer to `session`'s `turn`, asked for the `attempt`th time (1 the first). */
export type SoakScript = (session: string, turn: number, attempt: number) => ScriptedAnswer;

/** How long an agent-server may take to say it is ready before it is killed. */
const START_TIMEOUT_MS = 60_000;

/** The first group (else the match) of each pattern, once the child's stderr has said them all. */
function waitForLines(child: ChildProcess, patterns: readonly RegExp[]): Promise<string[]> {
  let said = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`agent-server did not start within ${START_TIMEOUT_MS / 1000} s: ${said}`));
    }, START_TIMEOUT_MS);
    child.stderr?.on('data', (chunk: Buffer) => {
      said += chunk.toString();
      const matches = patterns.map((pattern) => pattern.exec(said));
      if (matches.every((m) => m !== null)) {
        clearTimeout(timer);
        resolve(matches.map((m) => m?.[1] ?? m?.[0] ?? ''));
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`agent-server exited with ${code}: ${said}`));
    });
  });
}

export interface ModelRequestSeen {
  session: string;
  turn: number;
  worker: string;
  at: number;
}

/** Which requests the model server saw for each `session#turn`, and from which workers. */
class TurnLog {
  readonly runs = new Map<string, number>();
  readonly workers = new Map<string, Set<string>>();
  readonly requests: ModelRequestSeen[] = [];

  /** Counts the request against its session's turn; that session, turn and attempt (1 the first). */
  record(request: RecordedRequest): { session: string; turn: number; attempt: number } {
    const user = request.messages.find((m) => m.role === 'user' && String(m.content).includes('soak-'));
    const session = /soak-[a-z]*\d+/.exec(String(user?.content ?? ''))?.[0] ?? 'unknown';
    const turn = request.messages.filter((m) => m.role === 'assistant').length + 1;
    const key = `${session}#${turn}`;
    const attempt = (this.runs.get(key) ?? 0) + 1;
    this.runs.set(key, attempt);
    // Each worker process sends its name in a header (its own agent.json's provider headers).
    const worker = request.headers?.['x-soak-worker'] ?? 'unknown';
    this.workers.set(key, (this.workers.get(key) ?? new Set()).add(worker));
    this.requests.push({ session, turn, worker, at: Date.now() });
    return { session, turn, attempt };
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

/** agent.json with the model server as its one provider, sending `headers` with every request, and `extra` keys. */
function agentConfig(
  modelUrl: string,
  headers: Record<string, string>,
  extra: Record<string, unknown>,
): string {
  return JSON.stringify({
    ...extra,
    providers: { local: { type: 'openai-compatible', baseURL: `${modelUrl}/v1`, headers } },
  });
}

/** Writes the face's agent.json and the soak agent into `dir`; the agent's path. */
function writeSoakAgent(dir: string, modelUrl: string, options: FleetOptions): string {
  writeFileSync(join(dir, 'agent.json'), agentConfig(modelUrl, {}, options.extraConfig?.('face') ?? {}));
  const agent = join(dir, 'soak.ai');
  const tools = options.tools === undefined ? '' : `tools: [${options.tools.join(', ')}]\n`;
  writeFileSync(
    agent,
    `---\ndescription: The soak agent.\nmodels: [local/m]\n${tools}---\nYou work in turns.\n`,
  );
  return agent;
}

type SpawnServer = (args: string[]) => ChildProcess;

/** Spawns the built agent-server in `dir`, its HOME, with no API tokens. */
function serverSpawner(dir: string): SpawnServer {
  const env = { ...process.env, HOME: dir, XDG_CONFIG_HOME: join(dir, '.config'), AGENT_SERVER_TOKENS: '' };
  return (args) =>
    spawn(process.execPath, [SERVER_BIN, ...args], { cwd: dir, env, stdio: ['ignore', 'ignore', 'pipe'] });
}

const FACE_FLAGS: Record<FaceName, string> = { rest: '--api', openai: '--openai', anthropic: '--anthropic' };

/** The faces on free ports, every run sent to the queue. */
function faceArgs(agent: string, redisUrl: string, queueName: string, faces: readonly FaceName[]): string[] {
  return [
    '--agent',
    agent,
    ...faces.flatMap((face) => [FACE_FLAGS[face], '0']),
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
  redis: FleetRedis;
  model: ModelServer;
  agent: string;
  spawnServer: SpawnServer;
  faceProcess: ChildProcess;
}

class SoakFleet implements Fleet {
  readonly turnRuns: Map<string, number>;
  readonly turnWorkers: Map<string, Set<string>>;
  readonly modelRequests: readonly ModelRequestSeen[];
  readonly workers: (ChildProcess | undefined)[];
  private readonly names: (string | undefined)[] = [];
  private readonly starting = new Set<ChildProcess>();
  private closed = false;
  private starts = 0;

  readonly face: string;
  readonly redisUrl: string;
  readonly facePid: number | undefined;

  constructor(
    readonly faces: Partial<Record<FaceName, string>>,
    turns: TurnLog,
    private readonly base: FleetBase,
    private readonly options: FleetOptions,
  ) {
    this.turnRuns = turns.runs;
    this.turnWorkers = turns.workers;
    this.modelRequests = turns.requests;
    this.workers = Array.from({ length: options.workers }, () => undefined);
    this.face = faces.rest ?? '';
    this.redisUrl = base.redis.url;
    this.facePid = base.faceProcess.pid;
  }

  async startWorker(slot: number): Promise<void> {
    const { dir, redis, agent, spawnServer } = this.base;
    this.starts += 1;
    const name = `w${slot}.${this.starts}`;
    const config = join(dir, `${name}.json`);
    const extra = this.options.extraConfig?.(name) ?? {};
    writeFileSync(config, agentConfig(this.base.model.url, { 'x-soak-worker': name }, extra));
    const child = spawnServer(workerArgs(agent, config, redis.url, this.options));
    // close() kills it too if it comes while the worker is still starting.
    this.starting.add(child);
    try {
      await waitForLines(child, [/(taking jobs)/]);
    } finally {
      this.starting.delete(child);
    }
    if (this.closed) {
      child.kill('SIGKILL');
      return;
    }
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
    this.closed = true;
    for (const child of this.starting) child.kill('SIGKILL');
    for (let slot = 0; slot < this.workers.length; slot++) await this.killWorker(slot);
    this.base.faceProcess.kill('SIGKILL');
    await this.base.model.close();
    await this.base.redis.close();
    rmSync(this.base.dir, { recursive: true, force: true });
  }
}

/** Starts redis, the model server, the face and the workers; whatever started is stopped when a later step fails. */
export async function startFleet(options: FleetOptions): Promise<Fleet> {
  const dir = mkdtempSync(join(tmpdir(), 'queue-soak-'));
  const started: { redis?: FleetRedis; model?: ModelServer; face?: ChildProcess } = {};
  try {
    const redis = await (options.startRedis ?? startRedisServer)();
    started.redis = redis;
    const turns = new TurnLog();
    const script = options.script ?? ((session, turn) => soakAnswer(session, turn, options.delayMs));
    const model = await startModelServer({
      handler: (request) => {
        const { session, turn, attempt } = turns.record(request);
        return script(session, turn, attempt);
      },
    });
    started.model = model;
    const agent = writeSoakAgent(dir, model.url, options);
    const spawnServer = serverSpawner(dir);
    const names = options.faces ?? ['rest'];
    const faceProcess = spawnServer(faceArgs(agent, redis.url, options.queueName, names));
    started.face = faceProcess;
    const urls = await waitForLines(
      faceProcess,
      names.map((name) => new RegExp(`${name} listening on (\\S+)`)),
    );
    const faces = Object.fromEntries(names.map((name, i) => [name, urls[i]]));
    const fleet = new SoakFleet(
      faces,
      turns,
      { dir, redis, model, agent, spawnServer, faceProcess },
      options,
    );
    try {
      for (let slot = 0; slot < options.workers; slot++) await fleet.startWorker(slot);
    } catch (error) {
      // close() stops everything started so far: nothing is left for the outer catch.
      started.redis = undefined;
      started.model = undefined;
      started.face = undefined;
      await fleet.close();
      throw error;
    }
    return fleet;
  } catch (error) {
    started.face?.kill('SIGKILL');
    await started.model?.close();
    await started.redis?.close();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}
