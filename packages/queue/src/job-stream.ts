import { randomUUID } from 'node:crypto';
import type { AgentResult, ExitCode, LogEntry } from '@agent/protocol';
import { abortableSleep, errorMessage } from '@agent/protocol/util';
import type { QueueRedis } from './connection.js';
import { QueueError } from './errors.js';
import type { JobStreamEntry, QueueKeys } from './job.js';
import { StreamFence, streamField } from './stream-fence.js';

/** A job's stream keeps at most about this many entries (older ones are trimmed). */
const MAX_STREAM_ENTRIES = 100_000;
/** Entries read per XRANGE. */
const READ_BATCH = 500;

/**
 * Writes one job's entries to its Redis stream, in call order, and wakes the face that follows
 * it. The first entry goes out at once; entries written while a write is on its way go out
 * together when it lands, in one MULTI: an XADD each (the stream and its entries exactly as if
 * written one by one), then one EXPIRE and one PUBLISH for the lot. A streamed report thus
 * costs Redis a few commands per batch instead of five per token; the face reads the stream
 * from its last id whatever the notice says. `flush` waits for every entry.
 */
export class JobStreamWriter {
  private queued: JobStreamEntry[] = [];
  private inFlight: Promise<void> | undefined;
  private failure: string | undefined;
  private seq = 0;
  /** Tells this writer's entries from another's (a job's next attempt, or a second worker). */
  private readonly writerId = randomUUID();

  constructor(
    private readonly redis: QueueRedis,
    private readonly keys: QueueKeys,
    private readonly jobId: string,
    private readonly attempt: number,
    private readonly ttlSeconds: number,
  ) {}

  write(entry: JobStreamEntry): void {
    this.queued.push(entry);
    this.inFlight ??= this.drain();
  }

  /** Sends the queued entries, batch after batch, until none is left. */
  private async drain(): Promise<void> {
    while (this.queued.length > 0) {
      const batch = this.queued;
      this.queued = [];
      await this.send(batch);
    }
    this.inFlight = undefined;
  }

  private async send(batch: readonly JobStreamEntry[]): Promise<void> {
    const key = this.keys.events(this.jobId);
    const multi = this.redis.multi();
    for (const entry of batch) {
      this.seq += 1;
      multi.xadd(
        key,
        'MAXLEN',
        '~',
        String(MAX_STREAM_ENTRIES),
        '*',
        'a',
        String(this.attempt),
        'w',
        this.writerId,
        's',
        String(this.seq),
        'e',
        JSON.stringify(entry),
      );
    }
    await multi
      .expire(key, this.ttlSeconds)
      .publish(this.keys.notify(this.jobId), String(this.seq))
      .exec()
      .catch((error: unknown) => {
        this.failure ??= errorMessage(error);
      });
  }

  /** Waits for every write; rejects with the first write's error when one failed. */
  async flush(): Promise<void> {
    while (this.inFlight !== undefined) await this.inFlight;
    if (this.failure !== undefined) throw new QueueError(`writing the job's events failed: ${this.failure}`);
  }
}

/** A result for a run the queue could not bring to an end (the job failed, vanished, or Redis did). */
export function queueFailure(
  sessionId: string,
  message: string,
  exitCode: ExitCode = 'EXIT-UNCAUGHT-EXCEPTION',
): AgentResult {
  const entry: LogEntry = {
    timestamp: Date.now(),
    severity: 'ERR',
    direction: 'response',
    type: 'llm',
    remoteIdentifier: `agent:${exitCode}`,
    message,
    agentPath: 'queue',
  };
  return {
    success: false,
    exitCode,
    error: message,
    conversation: [],
    logs: [entry],
    accounting: [],
    sessionId,
  };
}

export interface FollowOptions {
  /** Each entry before the result, in stream order. */
  onEntry(entry: JobStreamEntry): void;
  /** Resolves when the face is told the job's stream has news (or rejects never). */
  wake(signal: AbortSignal): Promise<void>;
  /** Asked after a quiet `pollMs`: why the job will never write a result, else undefined. */
  gone(): Promise<string | undefined>;
  pollMs: number;
  signal?: AbortSignal;
}

/**
 * Reads a job's stream from the start until its result entry: every entry of the worker that
 * owns the job once, in order (XRANGE from after the last id read; `StreamFence` skips a stale
 * worker's entries and repeats). Between reads it sleeps until woken or `pollMs`; after a quiet
 * poll it asks `gone()` so a job that failed or vanished ends the wait with its reason.
 */
export async function followJob(
  redis: QueueRedis,
  keys: QueueKeys,
  jobId: string,
  options: FollowOptions,
): Promise<AgentResult | string> {
  const key = keys.events(jobId);
  const fence = new StreamFence();
  let last = '0-0';
  for (;;) {
    if (options.signal?.aborted) return 'the client went away';
    const rows = await redis.xrange(key, `(${last}`, '+', 'COUNT', READ_BATCH);
    for (const [id, fields] of rows) {
      last = id;
      if (fence.skips(fields)) continue;
      const entry = parseEntry(fields);
      if (entry === undefined) continue;
      if (entry.kind === 'result') return entry.result;
      options.onEntry(entry);
    }
    if (rows.length === READ_BATCH) continue;
    const woken = await waitForNews(options);
    if (!woken) {
      const reason = await options.gone();
      if (reason !== undefined) {
        // One last read: the result may have landed between the read and the check.
        const tailRows = await redis.xrange(key, `(${last}`, '+');
        for (const [, fields] of tailRows) {
          if (fence.skips(fields)) continue;
          const entry = parseEntry(fields);
          if (entry?.kind === 'result') return entry.result;
        }
        return reason;
      }
    }
  }
}

/** True when woken by news, false after a quiet `pollMs` (or an abort). */
async function waitForNews(options: FollowOptions): Promise<boolean> {
  const controller = new AbortController();
  const stop = () => controller.abort();
  options.signal?.addEventListener('abort', stop, { once: true });
  try {
    return await Promise.race([
      options.wake(controller.signal).then(() => true),
      abortableSleep(options.pollMs, controller.signal).then(
        () => false,
        () => false,
      ),
    ]);
  } finally {
    controller.abort();
    options.signal?.removeEventListener('abort', stop);
  }
}

function parseEntry(fields: string[]): JobStreamEntry | undefined {
  const text = streamField(fields, 'e');
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as JobStreamEntry;
  } catch {
    return undefined;
  }
}
