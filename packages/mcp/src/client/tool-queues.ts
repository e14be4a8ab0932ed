import { AgentError, ConfigError } from '@agent/protocol';
import { isPositiveInteger } from '@agent/protocol/util';

interface Waiter {
  start: () => void;
  cancel: () => void;
}

interface QueueState {
  running: number;
  waiting: Waiter[];
}

/** Raised when a call's signal aborts while it waits for a queue slot (code `queue_aborted`). */
export class QueueAbortedError extends AgentError {
  override readonly name = 'QueueAbortedError';

  constructor(message: string) {
    super('queue_aborted', message);
  }
}

function checkLimit(name: string, limit: number): void {
  if (!(limit === Number.POSITIVE_INFINITY || isPositiveInteger(limit))) {
    throw new ConfigError({
      source: `Queue "${name}"`,
      field: 'limit',
      value: limit,
      allowed: 'a positive integer or Infinity',
      message: `the limit must be a positive integer or Infinity, got ${limit}`,
    });
  }
}

/**
 * Named FIFO queues, each with its own concurrency limit. Share one instance between every
 * session of a process (see `defaultToolQueues`) so a limit such as "2 browser calls at a time"
 * holds across sessions. A queue nobody configured uses `defaultLimit` (unlimited by default).
 */
export class ToolQueues {
  private readonly limits = new Map<string, number>();
  private readonly queues = new Map<string, QueueState>();
  private readonly defaultLimit: number;

  constructor(options: { defaultLimit?: number } = {}) {
    this.defaultLimit = options.defaultLimit ?? Number.POSITIVE_INFINITY;
    checkLimit('(default)', this.defaultLimit);
  }

  /** Sets (or changes) limits; raising a limit starts waiting calls at once. */
  configure(limits: Record<string, number>): void {
    for (const [name, limit] of Object.entries(limits)) checkLimit(name, limit);
    for (const [name, limit] of Object.entries(limits)) {
      this.limits.set(name, limit);
      this.drain(name);
    }
  }

  limit(name: string): number {
    return this.limits.get(name) ?? this.defaultLimit;
  }

  /** Calls running and waiting in a queue right now. */
  stats(name: string): { running: number; waiting: number } {
    const state = this.queues.get(name);
    return { running: state?.running ?? 0, waiting: state?.waiting.length ?? 0 };
  }

  /**
   * Runs `fn` when the queue has a free slot (first come, first served). If `signal` aborts
   * while the call waits, it leaves the queue and the promise rejects with `QueueAbortedError`;
   * once started, `fn` is responsible for honouring the signal.
   */
  run<T>(name: string, fn: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (signal?.aborted)
      return Promise.reject(new QueueAbortedError(`Cancelled before queue "${name}" had a slot`));
    const state = this.state(name);
    const execute = async (): Promise<T> => {
      try {
        return await fn();
      } finally {
        state.running--;
        this.drain(name);
      }
    };
    if (state.waiting.length === 0 && state.running < this.limit(name)) {
      state.running++;
      return execute();
    }
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => waiter.cancel();
      const waiter: Waiter = {
        start: () => {
          signal?.removeEventListener('abort', onAbort);
          execute().then(resolve, reject);
        },
        cancel: () => {
          const index = state.waiting.indexOf(waiter);
          if (index !== -1) state.waiting.splice(index, 1);
          signal?.removeEventListener('abort', onAbort);
          reject(new QueueAbortedError(`Cancelled while waiting in queue "${name}"`));
          this.cleanup(name);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      state.waiting.push(waiter);
    });
  }

  private state(name: string): QueueState {
    let state = this.queues.get(name);
    if (!state) {
      state = { running: 0, waiting: [] };
      this.queues.set(name, state);
    }
    return state;
  }

  private drain(name: string): void {
    const state = this.queues.get(name);
    if (!state) return;
    while (state.waiting.length > 0 && state.running < this.limit(name)) {
      const next = state.waiting.shift();
      if (!next) break;
      state.running++;
      next.start();
    }
    this.cleanup(name);
  }

  private cleanup(name: string): void {
    const state = this.queues.get(name);
    if (state && state.running === 0 && state.waiting.length === 0) this.queues.delete(name);
  }
}

/** The process-wide queues every `McpToolProvider` uses unless given its own. */
export const defaultToolQueues = new ToolQueues();
