import { hostname } from 'node:os';
import { isCluster, replicasConfirming } from '@agent/cache/redis';
import type { AgentResult, SessionSnapshot, SessionStore } from '@agent/protocol';
import { AgentError, ConfigError } from '@agent/protocol';
import { abortableSleep, errorMessage, isPositiveInteger } from '@agent/protocol/util';
import { DelayedError, type Job, UnrecoverableError, Worker } from 'bullmq';
import { openQueueRedis, type QueueRedis, REPLICA_WAIT_MS } from './connection.js';
import { DEFAULT_QUEUE_NAME, jobSessionId, type QueueKeys, queueKeys, type RunJobData } from './job.js';
import { runJobSession, unservedMessage } from './job-session.js';
import { JobStreamWriter, queueFailure } from './job-stream.js';
import { ProviderCaps } from './provider-caps.js';
import { openQueueSessionStore, WorkerSessionStore } from './worker-store.js';
import type { RunWorker, RunWorkerOptions, WorkerAgent, WorkerAgents } from './worker-types.js';

interface RunningJob {
  sessionId: string;
  controller: AbortController;
  /** Stopped here (the worker stops, or lost the job's lock): nothing more of it is written. */
  handedBack: boolean;
  /** The job's lock was lost: another worker may own it, so this one leaves the job as it is. */
  lockLost: boolean;
  done: Promise<unknown>;
}

/** A worker's settings, defaults applied and checked. */
interface WorkerSettings {
  url: string;
  name: string;
  keys: QueueKeys;
  concurrency: number;
  lockMs: number;
  maxMoves: number;
  resultTtl: number;
  id: string;
  log: (line: string) => void;
}

/** Opens a worker of the run queue on `url` (its session store included); `start` begins the work. */
export async function openRunWorker(options: RunWorkerOptions): Promise<RunWorker> {
  const name = options.name ?? DEFAULT_QUEUE_NAME;
  const redis = openQueueRedis(options.url);
  const settings: WorkerSettings = {
    url: options.url,
    name,
    keys: queueKeys(name, isCluster(redis)),
    concurrency: options.concurrency ?? 4,
    lockMs: options.lockMs ?? 30_000,
    maxMoves: options.maxMoves ?? 5,
    resultTtl: options.resultTtlSeconds ?? 3600,
    id: options.workerId ?? `${hostname()}:${process.pid}`,
    log: options.onLog ?? (() => undefined),
  };
  const { concurrency, lockMs, maxMoves, resultTtl } = settings;
  try {
    checkWorkerNumbers({ concurrency, lockMs, maxMoves, resultTtl });
  } catch (error) {
    redis.disconnect();
    throw error;
  }
  let sessionStore: WorkerSessionStore;
  try {
    sessionStore = new WorkerSessionStore(
      await openQueueSessionStore(
        options.url,
        options.keySettings === undefined ? {} : { keySettings: options.keySettings },
      ),
    );
  } catch (error) {
    redis.disconnect();
    throw error;
  }
  const subscriber = openQueueRedis(options.url);
  const caps = new ProviderCaps(redis, settings.keys, options.providerCaps ?? {}, lockMs);
  const worker = new QueueRunWorker(settings, { sessionStore, redis, subscriber, caps });
  // A face whose client went away publishes the job's id (a cancel, the session's id): its session is cancelled.
  subscriber.on('message', (_channel: string, jobId: string) => worker.cancel(jobId));
  await subscriber.subscribe(settings.keys.cancel);
  return worker;
}

class QueueRunWorker implements RunWorker {
  readonly id: string;
  readonly sessionStore: WorkerSessionStore;
  private readonly jobs = new Map<string, RunningJob>();
  private worker: Worker<RunJobData> | undefined;
  private stopping = false;

  constructor(
    private readonly settings: WorkerSettings,
    private readonly deps: {
      sessionStore: WorkerSessionStore;
      redis: QueueRedis;
      subscriber: QueueRedis;
      caps: ProviderCaps;
    },
  ) {
    this.id = settings.id;
    this.sessionStore = deps.sessionStore;
  }

  get running(): number {
    return this.jobs.size;
  }

  /** Cancels the job of that id, or the job running that session (`RunQueue.cancelSession`). */
  cancel(id: string): void {
    for (const [jobId, entry] of this.jobs) {
      if (jobId === id || entry.sessionId === id)
        entry.controller.abort(new AgentError('aborted', 'the client went away or cancelled the run'));
    }
  }

  start(agents: WorkerAgents): void {
    if (this.worker !== undefined) return;
    const { name, url, concurrency, lockMs, maxMoves, log } = this.settings;
    this.worker = new Worker<RunJobData>(
      name,
      async (job, token) => {
        const done = this.processJob(agents, job, token);
        const entry = this.jobs.get(job.id as string);
        if (entry !== undefined) entry.done = done.catch(() => undefined);
        return done;
      },
      {
        connection: openQueueRedis(url),
        prefix: this.settings.keys.bullPrefix,
        concurrency,
        lockDuration: lockMs,
        stalledInterval: lockMs,
        maxStalledCount: maxMoves,
      },
    );
    this.worker.on('error', (error) => log(`queue worker: ${errorMessage(error)}`));
    this.worker.on('lockRenewalFailed', (jobIds) => this.lockLost(jobIds));
    this.worker.on('failed', (job, error) => {
      if (!(error instanceof DelayedError)) log(`job ${job?.id ?? '?'} failed: ${errorMessage(error)}`);
    });
  }

  /**
   * A worker frozen past its lock (or cut off from Redis that long) learns at its next renewal
   * that the job may have moved: it stops its copy of the session, which would otherwise go on
   * calling tools and writing checkpoints over those of the worker that took the job.
   */
  private lockLost(jobIds: readonly string[]): void {
    for (const jobId of jobIds) {
      const entry = this.jobs.get(jobId);
      if (entry === undefined || entry.handedBack) continue;
      entry.handedBack = true;
      entry.lockLost = true;
      this.sessionStore.handBack(entry.sessionId);
      this.settings.log(
        `job ${jobId}: its lock lapsed (the worker was frozen or cut off from Redis past the lock time); its run here stops, the worker that takes the job resumes the session`,
      );
      entry.controller.abort(
        new AgentError('aborted', "the job's lock lapsed: another worker resumes the session"),
      );
    }
  }

  async stop(drainMs = 0): Promise<void> {
    this.stopping = true;
    const closing = this.worker?.close() ?? Promise.resolve();
    const drained = closing.then(() => true);
    if (this.jobs.size > 0 && drainMs > 0)
      await Promise.race([drained, abortableSleep(drainMs).then(() => false)]);
    for (const entry of this.jobs.values()) {
      entry.handedBack = true;
      this.sessionStore.handBack(entry.sessionId);
      entry.controller.abort(
        new AgentError('aborted', 'the worker is stopping; the session moves to another worker'),
      );
    }
    await closing;
    await this.sessionStore.close().catch(() => undefined);
    this.deps.subscriber.disconnect();
    this.deps.redis.disconnect();
  }

  private async processJob(
    agents: WorkerAgents,
    job: Job<RunJobData>,
    token: string | undefined,
  ): Promise<void> {
    const jobId = job.id as string;
    const sessionId = jobSessionId(jobId, job.data);
    const { keys, resultTtl, url } = this.settings;
    // A stopping worker can still be handed a job (BullMQ fetches the next one as a job ends): pass it on untouched.
    if (this.stopping) {
      await job.moveToDelayed(Date.now(), token);
      throw new DelayedError();
    }
    if ((await this.deps.redis.exists(keys.result(jobId))) === 1) return; // answered before its worker died
    const writer = new JobStreamWriter(this.deps.redis, keys, jobId, job.attemptsStarted, resultTtl * 24);
    const served = agents.get(job.data.agent);
    if (served === undefined) {
      const message = unservedMessage(job.data.agent, agents.loadFailures ?? [], url);
      await this.finish(writer, jobId, queueFailure(sessionId, message, 'EXIT-CONFIGURATION'));
      throw new UnrecoverableError(message);
    }
    const snapshot = await this.sessionStore.load(sessionId);
    // A snapshot under a fresh run's id can only come from an earlier attempt on another worker.
    const earlierAttempt = job.data.resume === undefined && snapshot !== undefined;
    if (job.attemptsStarted > 1 || job.stalledCounter > 0 || earlierAttempt) {
      writer.write({ kind: 'moved', worker: this.id, fromTurn: snapshot?.turn ?? 0 });
    }
    // Queue runs are durable: with a journal in the store, the session journals each answer.
    if (journals(this.sessionStore)) writer.write({ kind: 'journaling' });
    const entry: RunningJob = {
      sessionId,
      controller: new AbortController(),
      handedBack: false,
      lockLost: false,
      done: Promise.resolve(),
    };
    this.jobs.set(jobId, entry);
    try {
      const result = await this.runLeased(served, job.data, entry, { snapshot, writer });
      if (entry.handedBack) {
        // Without its lock the job is not this worker's to move: BullMQ leaves it as it is on a DelayedError.
        if (!entry.lockLost) await job.moveToDelayed(Date.now(), token);
        throw new DelayedError();
      }
      await this.finish(writer, jobId, result);
    } finally {
      this.jobs.delete(jobId);
      this.sessionStore.forget(sessionId);
    }
  }

  /** The job's session under its providers' caps; its events go to the job's stream until it is handed back. */
  private async runLeased(
    served: WorkerAgent,
    data: RunJobData,
    entry: RunningJob,
    at: { snapshot: SessionSnapshot | undefined; writer: JobStreamWriter },
  ): Promise<AgentResult> {
    const lease = await this.deps.caps.acquire(served.providers ?? [], entry.controller.signal);
    try {
      return await runJobSession(served.agent, data, entry.sessionId, at.snapshot, {
        signal: entry.controller.signal,
        onEvent: (event, meta) => {
          // A snapshot is in the session store already; in the stream it would repeat the conversation each turn.
          if (!entry.handedBack && event.type !== 'snapshot') at.writer.write({ kind: 'event', event, meta });
        },
      });
    } finally {
      await lease.release();
    }
  }

  /**
   * Writes the result, then (on a cluster) waits until a replica has it: only then may BullMQ
   * mark the job done. Its master dying first: the result is written again on the promoted replica.
   */
  private async finish(writer: JobStreamWriter, jobId: string, result: AgentResult): Promise<void> {
    const { keys, resultTtl } = this.settings;
    const { snapshot: _paused, ...kept } = result as AgentResult & { snapshot?: SessionSnapshot };
    for (let tries = 1; ; tries++) {
      writer.write({ kind: 'result', result: kept as AgentResult });
      await writer.flush();
      await this.deps.redis
        .multi()
        .set(keys.result(jobId), '1', 'EX', resultTtl)
        .expire(keys.events(jobId), resultTtl)
        .exec();
      try {
        await replicasConfirming(this.deps.redis, keys.result(jobId), REPLICA_WAIT_MS);
        return;
      } catch (error) {
        if (tries >= RESULT_TRIES) throw error;
      }
    }
  }
}

/** Writes of one result before the job fails (each after its master died before a replica had it). */
const RESULT_TRIES = 3;

/** Whether sessions checkpointing into `store` journal their turns (the store keeps journals). */
function journals(store: SessionStore): boolean {
  return typeof store.appendJournal === 'function';
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
