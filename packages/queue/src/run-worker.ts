import { hostname } from 'node:os';
import { redisUrlSecrets } from '@agent/cache';
import type {
  AgentEvent,
  AgentEventMeta,
  AgentResult,
  JsonSchema,
  OutputFormat,
  SessionSnapshot,
} from '@agent/protocol';
import { AgentError, ConfigError } from '@agent/protocol';
import { abortableSleep, errorMessage, isPositiveInteger } from '@agent/protocol/util';
import { DelayedError, type Job, UnrecoverableError, Worker } from 'bullmq';
import { openQueueRedis } from './connection.js';
import { DEFAULT_QUEUE_NAME, jobSessionId, queueKeys, type RunJobData } from './job.js';
import { JobStreamWriter, queueFailure } from './job-stream.js';
import { ProviderCaps } from './provider-caps.js';
import { openQueueSessionStore, WorkerSessionStore } from './worker-store.js';

/** Per-run options a worker passes to an agent (an `AgentRunner` of `@agent/runtime` fits). */
export interface QueueRunOptions {
  format?: OutputFormat;
  schema?: JsonSchema;
  headendId?: string;
  /** The face's W3C `traceparent` (docs/observability.md). */
  traceparent?: string;
  onEvent?: (event: AgentEvent, meta: AgentEventMeta) => void;
  signal?: AbortSignal;
}

/** One agent a worker runs; its runs must checkpoint into `worker.sessionStore`. */
export interface QueueAgent {
  run(
    input: RunJobData['input'],
    options: QueueRunOptions & { sessionId: string; durable: true },
  ): Promise<AgentResult>;
  resume(
    sessionId: string,
    options: QueueRunOptions & { approvals?: NonNullable<RunJobData['resume']>['approvals'] },
  ): Promise<AgentResult>;
}

export interface RunWorkerOptions {
  url: string;
  name?: string;
  /** Jobs this worker runs at once (default 4). */
  concurrency?: number;
  /** Fleet-wide cap of sessions at once per model provider, e.g. `{ openai: 8 }`. */
  providerCaps?: Readonly<Record<string, number>>;
  /**
   * How long a job's lock lasts without renewal, ms (default 30000): a killed worker's job is
   * taken over by another between one and two of these after its death.
   */
  lockMs?: number;
  /** How many times one job may move to another worker before it fails (default 5). */
  maxMoves?: number;
  /** How long the job's event stream and result stay readable after the run, s (default 3600). */
  resultTtlSeconds?: number;
  /** This worker's name in `moved` notices (default host:pid). */
  workerId?: string;
  /** Lines for the operator (the app writes them to stderr). */
  onLog?: (line: string) => void;
}

/** One agent a worker runs, with the providers of every model its runs may call (for the caps). */
export interface WorkerAgent {
  agent: QueueAgent;
  providers?: readonly string[];
}

/** What a worker is given to run: its agents by name. */
export interface WorkerAgents {
  get(name: string): WorkerAgent | undefined;
  /**
   * The agent files this worker could not load, one `file: why` each (secrets removed): a job
   * this worker cannot run fails once, saying them, instead of waiting for a worker that can.
   */
  loadFailures?: readonly string[];
}

export interface RunWorker {
  readonly id: string;
  /** The shared Redis session store; give it to the agents' runners (`sessionStore`). */
  readonly sessionStore: WorkerSessionStore;
  /** Starts taking jobs. */
  start(agents: WorkerAgents): void;
  /** Sessions running now. */
  readonly running: number;
  /**
   * Stops taking jobs; lets running sessions finish for `drainMs`, then hands the rest back to
   * the queue at their last checkpoint (another worker resumes them) and closes everything.
   */
  stop(drainMs?: number): Promise<void>;
}

interface RunningJob {
  sessionId: string;
  controller: AbortController;
  handedBack: boolean;
  done: Promise<unknown>;
}

/** Opens a worker of the run queue on `url` (its session store included); `start` begins the work. */
export async function openRunWorker(options: RunWorkerOptions): Promise<RunWorker> {
  const name = options.name ?? DEFAULT_QUEUE_NAME;
  const keys = queueKeys(name);
  const concurrency = options.concurrency ?? 4;
  const lockMs = options.lockMs ?? 30_000;
  const maxMoves = options.maxMoves ?? 5;
  const resultTtl = options.resultTtlSeconds ?? 3600;
  checkWorkerNumbers({ concurrency, lockMs, maxMoves, resultTtl });
  const id = options.workerId ?? `${hostname()}:${process.pid}`;
  const log = options.onLog ?? (() => undefined);
  const sessionStore = new WorkerSessionStore(await openQueueSessionStore(options.url));
  const redis = openQueueRedis(options.url);
  const subscriber = openQueueRedis(options.url);
  const caps = new ProviderCaps(redis, keys, options.providerCaps ?? {}, lockMs);
  const running = new Map<string, RunningJob>();
  let worker: Worker<RunJobData> | undefined;
  let stopping = false;

  subscriber.on('message', (_channel: string, jobId: string) => {
    running.get(jobId)?.controller.abort(new AgentError('aborted', 'the client went away'));
  });
  await subscriber.subscribe(keys.cancel);

  async function processJob(
    agents: WorkerAgents,
    job: Job<RunJobData>,
    token: string | undefined,
  ): Promise<void> {
    const jobId = job.id as string;
    const sessionId = jobSessionId(jobId, job.data);
    // A stopping worker can still be handed a job (BullMQ fetches the next one as a job ends): pass it on untouched.
    if (stopping) {
      await job.moveToDelayed(Date.now(), token);
      throw new DelayedError();
    }
    if ((await redis.exists(keys.result(jobId))) === 1) return; // answered before its worker died
    const writer = new JobStreamWriter(redis, keys, jobId, job.attemptsStarted, resultTtl * 24);
    const served = agents.get(job.data.agent);
    if (served === undefined) {
      const message = unservedMessage(job.data.agent, agents.loadFailures ?? [], options.url);
      await finish(writer, jobId, queueFailure(sessionId, message, 'EXIT-CONFIGURATION'));
      throw new UnrecoverableError(message);
    }
    const snapshot = await sessionStore.load(sessionId);
    // A snapshot under a fresh run's id can only come from an earlier attempt on another worker.
    const earlierAttempt = job.data.resume === undefined && snapshot !== undefined;
    if (job.attemptsStarted > 1 || job.stalledCounter > 0 || earlierAttempt) {
      writer.write({ kind: 'moved', worker: id, fromTurn: snapshot?.turn ?? 0 });
    }
    const entry: RunningJob = {
      sessionId,
      controller: new AbortController(),
      handedBack: false,
      done: Promise.resolve(),
    };
    running.set(jobId, entry);
    try {
      const lease = await caps.acquire(served.providers ?? [], entry.controller.signal);
      let result: AgentResult;
      try {
        result = await runSession(served.agent, job.data, sessionId, snapshot, {
          signal: entry.controller.signal,
          onEvent: (event, meta) => {
            if (!entry.handedBack) writer.write({ kind: 'event', event, meta });
          },
        });
      } finally {
        await lease.release();
      }
      if (entry.handedBack) {
        await job.moveToDelayed(Date.now(), token);
        throw new DelayedError();
      }
      await finish(writer, jobId, result);
    } finally {
      running.delete(jobId);
      sessionStore.forget(sessionId);
    }
  }

  async function finish(writer: JobStreamWriter, jobId: string, result: AgentResult): Promise<void> {
    const { snapshot: _paused, ...kept } = result as AgentResult & { snapshot?: SessionSnapshot };
    writer.write({ kind: 'result', result: kept as AgentResult });
    await writer.flush();
    await redis
      .multi()
      .set(keys.result(jobId), '1', 'EX', resultTtl)
      .expire(keys.events(jobId), resultTtl)
      .exec();
  }

  return {
    id,
    sessionStore,
    get running() {
      return running.size;
    },
    start(agents) {
      if (worker !== undefined) return;
      worker = new Worker<RunJobData>(
        name,
        async (job, token) => {
          const done = processJob(agents, job, token);
          const entry = running.get(job.id as string);
          if (entry !== undefined) entry.done = done.catch(() => undefined);
          return done;
        },
        {
          connection: openQueueRedis(options.url),
          concurrency,
          lockDuration: lockMs,
          stalledInterval: lockMs,
          maxStalledCount: maxMoves,
        },
      );
      worker.on('error', (error) => log(`queue worker: ${errorMessage(error)}`));
      worker.on('failed', (job, error) => {
        if (!(error instanceof DelayedError)) log(`job ${job?.id ?? '?'} failed: ${errorMessage(error)}`);
      });
    },
    async stop(drainMs = 0) {
      stopping = true;
      const closing = worker?.close() ?? Promise.resolve();
      const drained = closing.then(() => true);
      if (running.size > 0 && drainMs > 0)
        await Promise.race([drained, abortableSleep(drainMs).then(() => false)]);
      for (const entry of running.values()) {
        entry.handedBack = true;
        sessionStore.handBack(entry.sessionId);
        entry.controller.abort(
          new AgentError('aborted', 'the worker is stopping; the session moves to another worker'),
        );
      }
      await closing;
      await sessionStore.close().catch(() => undefined);
      subscriber.disconnect();
      redis.disconnect();
    },
  };
}

/** Runs the job's session: fresh, resumed from its last checkpoint, or (already finished) answered from it. */
function runSession(
  agent: QueueAgent,
  data: RunJobData,
  sessionId: string,
  snapshot: SessionSnapshot | undefined,
  hooks: Pick<QueueRunOptions, 'signal' | 'onEvent'>,
): Promise<AgentResult> {
  const options: QueueRunOptions = {
    ...hooks,
    ...(data.format === undefined ? {} : { format: data.format }),
    ...(data.schema === undefined ? {} : { schema: data.schema }),
    ...(data.headendId === undefined ? {} : { headendId: data.headendId }),
    ...(data.traceparent === undefined ? {} : { traceparent: data.traceparent }),
  };
  if (snapshot?.status === 'finished') return Promise.resolve(resultOfFinished(snapshot));
  if (data.resume !== undefined) {
    // The decisions answer the pause; a resume job that moved after its first checkpoint is past it.
    const { approvals } = data.resume;
    const decided = snapshot?.status === 'awaiting_approval' && approvals !== undefined;
    return agent.resume(sessionId, decided ? { ...options, approvals } : options);
  }
  if (snapshot === undefined) return agent.run(data.input, { ...options, sessionId, durable: true });
  return agent.resume(sessionId, options);
}

/** The result of a session whose worker died after its last checkpoint and before answering. */
function resultOfFinished(snapshot: SessionSnapshot): AgentResult {
  const base = {
    exitCode: snapshot.exitCode ?? ('EXIT-UNCAUGHT-EXCEPTION' as const),
    conversation: snapshot.conversation,
    logs: [],
    accounting: snapshot.accounting,
    opTree: snapshot.opTree,
    sessionId: snapshot.sessionId,
  };
  if (snapshot.exitCode === 'EXIT-FINAL-ANSWER' && snapshot.finalReport !== undefined) {
    return { ...base, success: true, finalReport: snapshot.finalReport };
  }
  return {
    ...base,
    success: false,
    error: `the session ended (${base.exitCode}) before its worker stopped`,
    ...(snapshot.finalReport === undefined ? {} : { finalReport: snapshot.finalReport }),
  };
}

/** Why a job's agent is not run here: the worker does not serve it, or its agent file did not load here. */
function unservedMessage(agent: string, loadFailures: readonly string[], url: string): string {
  const name = JSON.stringify(agent);
  if (loadFailures.length === 0) {
    return `this worker serves no agent named ${name}: start the workers with the same --agent files as the face`;
  }
  const secrets = redisUrlSecrets(url);
  const why = loadFailures.map((line) =>
    secrets.reduce((text, secret) => text.split(secret).join('[redacted]'), line),
  );
  return `this worker cannot run agent ${name}: agent files did not load here: ${why.join('; ')}`;
}

function checkWorkerNumbers(numbers: Record<string, number>): void {
  for (const [field, value] of Object.entries(numbers)) {
    if (!isPositiveInteger(value)) {
      throw new ConfigError({
        field,
        value,
        allowed: 'a positive whole number',
        message: `run worker: ${field} must be a positive whole number, not ${String(value)}`,
      });
    }
  }
}
