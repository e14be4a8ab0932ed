import { randomUUID } from 'node:crypto';
import { redactRedisUrl } from '@agent/cache';
import { isCluster, replicasConfirming } from '@agent/cache/redis';
import type { AgentEvent, AgentEventMeta, AgentResult } from '@agent/protocol';
import { errorMessage } from '@agent/protocol/util';
import { Queue } from 'bullmq';
import { openQueueRedis, type QueueRedis, REPLICA_WAIT_MS } from './connection.js';
import { EventRelay } from './event-relay.js';
import { DEFAULT_QUEUE_NAME, jobSessionId, type QueueKeys, queueKeys, type RunJobData } from './job.js';
import { followJob, queueFailure } from './job-stream.js';
import { JobNotifier } from './notifier.js';

export interface RunQueueOptions {
  /** `redis://host:port` (or `rediss://`, or a cluster's `redis+cluster://`); the same Redis the workers use. */
  url: string;
  /** BullMQ queue name (default `agent-runs`). */
  name?: string;
  /** Jobs waiting for a worker beyond which `admission()` refuses (default 1000; 0: no cap). */
  maxWaiting?: number;
  /** Seconds a refused client is told to wait (default 5). */
  retryAfterSeconds?: number;
  /** How often a follower with no news checks that its job still exists, ms (default 2000). */
  pollMs?: number;
}

export interface SubmitOptions {
  /** A new run's session id (default a random UUID); also the job's id. Ignored for `data.resume`. */
  sessionId?: string;
  onEvent?: (event: AgentEvent, meta: AgentEventMeta) => void;
  /** Aborting it cancels the run (removed when waiting, cancelled on its worker when running). */
  signal?: AbortSignal;
}

/** Why a face should not enqueue now: the queue is at its cap. */
export interface QueueRefusal {
  retryAfterSeconds: number;
  message: string;
}

/** The face side of the run queue: enqueue a run and follow it to its result. */
export interface RunQueue {
  readonly name: string;
  /** Enqueues the run and resolves with its result; never rejects (a queue failure is a failed result). */
  submit(data: RunJobData, options?: SubmitOptions): Promise<AgentResult>;
  /** Undefined when a run may be enqueued; the refusal (429 + Retry-After) when the queue is full. */
  admission(): Promise<QueueRefusal | undefined>;
  /**
   * Stops a session's run from any face: a waiting job of that id is removed, and the worker
   * running the session (its first run or a resume) cancels it; its follower gets the aborted result.
   */
  cancelSession(sessionId: string): Promise<void>;
  /** Jobs by state (`waiting`, `active`, `delayed`, `completed`, `failed`, ...). */
  counts(): Promise<Record<string, number>>;
  close(): Promise<void>;
}

export const DEFAULT_MAX_WAITING = 1000;
/** Adds of one job before its enqueue fails (each after its master died before a replica had it). */
const ENQUEUE_TRIES = 3;

/** Opens the face side of the queue on `url` (connections open lazily, reconnect by themselves). */
export function createRunQueue(options: RunQueueOptions): RunQueue {
  return new RedisRunQueue(options);
}

class RedisRunQueue implements RunQueue {
  readonly name: string;
  private readonly keys: QueueKeys;
  private readonly redis: QueueRedis;
  private readonly subscriber: QueueRedis;
  private readonly notifier: JobNotifier;
  private readonly queue: Queue<RunJobData>;
  private readonly maxWaiting: number;
  private readonly retryAfterSeconds: number;
  private readonly pollMs: number;
  /** The URL with its password removed, for messages. */
  private readonly where: string;

  constructor(options: RunQueueOptions) {
    this.name = options.name ?? DEFAULT_QUEUE_NAME;
    this.redis = openQueueRedis(options.url);
    this.keys = queueKeys(this.name, isCluster(this.redis));
    this.subscriber = openQueueRedis(options.url);
    this.notifier = new JobNotifier(this.subscriber);
    this.queue = new Queue<RunJobData>(this.name, { connection: this.redis, prefix: this.keys.bullPrefix });
    this.queue.on('error', () => undefined);
    this.maxWaiting = options.maxWaiting ?? DEFAULT_MAX_WAITING;
    this.retryAfterSeconds = options.retryAfterSeconds ?? 5;
    this.pollMs = options.pollMs ?? 2000;
    this.where = redactRedisUrl(options.url);
  }

  // `submit` and `admission` are fields, not methods: callers pass them on detached (a headend's admission gate).
  readonly submit = async (data: RunJobData, submitOptions: SubmitOptions = {}): Promise<AgentResult> => {
    // A resumed session runs as a job of its own: its first run's job id (and result) is taken.
    const jobId =
      data.resume === undefined ? (submitOptions.sessionId ?? randomUUID()) : `resume-${randomUUID()}`;
    const sessionId = jobSessionId(jobId, data);
    const channel = this.keys.notify(jobId);
    const relay = new EventRelay(data, sessionId, submitOptions.onEvent);
    const { signal } = submitOptions;
    const onAbort = () => void this.cancel(jobId);
    try {
      await this.notifier.watch(channel);
      await this.enqueue(jobId, data);
      signal?.addEventListener('abort', onAbort, { once: true });
      const outcome = await followJob(this.redis, this.keys, jobId, {
        onEntry: (entry) => relay.entry(entry),
        wake: (wakeSignal) => this.notifier.next(channel, wakeSignal),
        gone: () => this.gone(jobId),
        pollMs: this.pollMs,
        ...(signal === undefined ? {} : { signal }),
      });
      if (typeof outcome !== 'string') {
        relay.finish();
        return outcome;
      }
      return queueFailure(sessionId, outcome, signal?.aborted ? 'EXIT-ABORTED' : 'EXIT-UNCAUGHT-EXCEPTION');
    } catch (error) {
      return queueFailure(
        sessionId,
        `the run queue ${this.name} at ${this.where} failed: ${errorMessage(error)}`,
      );
    } finally {
      signal?.removeEventListener('abort', onAbort);
      await this.notifier.unwatch(channel);
    }
  };

  readonly cancelSession = (sessionId: string): Promise<void> => this.cancel(sessionId);

  readonly admission = async (): Promise<QueueRefusal | undefined> => {
    const { maxWaiting } = this;
    if (maxWaiting === 0) return undefined;
    const counts = await this.queue.getJobCounts('waiting', 'prioritized', 'delayed');
    const waiting = Object.values(counts).reduce((sum, count) => sum + count, 0);
    if (waiting < maxWaiting) return undefined;
    return {
      retryAfterSeconds: this.retryAfterSeconds,
      message: `the run queue is full: ${waiting} runs wait for a worker (the limit is ${maxWaiting}); retry later`,
    };
  };

  counts(): Promise<Record<string, number>> {
    return this.queue.getJobCounts();
  }

  async close(): Promise<void> {
    await this.queue.close().catch(() => undefined);
    this.subscriber.disconnect();
    this.redis.disconnect();
  }

  /**
   * Adds the job; on a cluster, until a replica has it too (a master killed right after the add
   * may not have passed it on: the add is sent again, a no-op when the job is there).
   */
  private async enqueue(jobId: string, data: RunJobData): Promise<void> {
    for (let tries = 1; ; tries++) {
      await this.queue.add('run', data, {
        jobId,
        removeOnComplete: true,
        removeOnFail: { age: 24 * 3600 },
        attempts: 1,
      });
      try {
        await replicasConfirming(
          this.redis,
          `${this.keys.bullPrefix}:${this.name}:${jobId}`,
          REPLICA_WAIT_MS,
        );
        return;
      } catch (error) {
        if (tries >= ENQUEUE_TRIES) throw error;
      }
    }
  }

  /** Why a job without a result will not get one: it left the queue or failed (undefined while it may). */
  private async gone(jobId: string): Promise<string | undefined> {
    const job = await this.queue.getJob(jobId);
    if (job === undefined) return `job ${jobId} left the queue ${this.name} without a result`;
    const state = await job.getState();
    if (state !== 'failed') return undefined;
    // BullMQ's words when a job stalled (its worker died or stopped) more often than maxStalledCount.
    if (job.failedReason?.includes('stalled more than allowable limit')) {
      return `job ${jobId} failed: its session moved to another worker more often than the workers' --max-moves allows (each time its worker died mid-run); it is not retried`;
    }
    return `job ${jobId} failed: ${job.failedReason}`;
  }

  /** A waiting job is removed; a running one (that job, or one running that session) is cancelled by its worker. */
  private async cancel(jobId: string): Promise<void> {
    try {
      const job = await this.queue.getJob(jobId);
      if (job !== undefined && (await job.getState()) === 'waiting') await job.remove();
      else await this.redis.publish(this.keys.cancel, jobId);
    } catch {
      // Redis is away: the run goes on and its result expires unread.
    }
  }
}
