import { abortableSleep } from '@agent/protocol/util';
import type { QueueRedis } from './connection.js';

/**
 * Tries of a SUBSCRIBE, 200 ms apart. On a cluster, ioredis writes a SUBSCRIBE that arrives while
 * its new subscriber connection (after a failover) is still starting before that connection's
 * ready check, which then fails ("Connection in subscriber mode") and takes the SUBSCRIBE with it.
 */
const SUBSCRIBE_TRIES = 10;
const SUBSCRIBE_RETRY_MS = 200;

/**
 * One subscriber connection that wakes the followers of many jobs: a follower registers its
 * job's channel first and reads after, so a notice that arrives between a read and the next
 * wait is kept as `pending` instead of being lost.
 */
export class JobNotifier {
  private readonly jobs = new Map<string, { pending: boolean; wakers: Set<() => void> }>();

  constructor(private readonly subscriber: QueueRedis) {
    subscriber.on('message', (channel: string) => {
      const job = this.jobs.get(channel);
      if (job === undefined) return;
      if (job.wakers.size === 0) job.pending = true;
      for (const wake of job.wakers) wake();
      job.wakers.clear();
    });
  }

  /**
   * Subscribes to the channel. Never fails: the follower also reads the job every `pollMs`, so a
   * subscription that cannot be made (after its tries) costs latency, never the run.
   */
  async watch(channel: string): Promise<void> {
    this.jobs.set(channel, { pending: false, wakers: new Set() });
    for (let tried = 1; tried <= SUBSCRIBE_TRIES && this.jobs.has(channel); tried++) {
      try {
        await this.subscriber.subscribe(channel);
        return;
      } catch {
        await abortableSleep(SUBSCRIBE_RETRY_MS);
      }
    }
  }

  async unwatch(channel: string): Promise<void> {
    this.jobs.delete(channel);
    await this.subscriber.unsubscribe(channel).catch(() => undefined);
  }

  /** Resolves at the channel's next notice (at once when one came since the last wait). */
  next(channel: string, signal: AbortSignal): Promise<void> {
    const job = this.jobs.get(channel);
    if (job === undefined) return new Promise(() => undefined);
    if (job.pending) {
      job.pending = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const wake = () => resolve();
      job.wakers.add(wake);
      signal.addEventListener('abort', () => job.wakers.delete(wake), { once: true });
    });
  }
}
