import { AgentError } from '@agent/protocol';

/** Raised when a caller's signal aborts while it waits for a slot. */
export class SlotAbortedError extends AgentError {
  override readonly name = 'SlotAbortedError';

  constructor(message: string) {
    super('slot_aborted', message);
  }
}

/**
 * At most `limit` tasks at once per nesting level. One semaphore per level keeps a chain of
 * nested sub-agents from deadlocking: a parent holds a slot of its level, its children wait
 * only for slots of theirs.
 */
export class LevelLimiter {
  private readonly levels = new Map<number, { running: number; waiting: (() => void)[] }>();

  constructor(readonly limit: number) {}

  async run<T>(level: number, signal: AbortSignal, task: () => Promise<T>): Promise<T> {
    let state = this.levels.get(level);
    if (state === undefined) {
      state = { running: 0, waiting: [] };
      this.levels.set(level, state);
    }
    const slots = state;
    if (slots.running >= this.limit) {
      await new Promise<void>((resolve, reject) => {
        if (signal.aborted) {
          reject(new SlotAbortedError('cancelled before a sub-agent slot was free'));
          return;
        }
        const start = () => {
          signal.removeEventListener('abort', onAbort);
          resolve();
        };
        const onAbort = () => {
          const index = slots.waiting.indexOf(start);
          if (index !== -1) slots.waiting.splice(index, 1);
          reject(new SlotAbortedError('cancelled while waiting for a sub-agent slot'));
        };
        signal.addEventListener('abort', onAbort, { once: true });
        slots.waiting.push(start);
      });
    } else {
      slots.running++;
    }
    try {
      return await task();
    } finally {
      const next = slots.waiting.shift();
      if (next !== undefined) next();
      else slots.running--;
    }
  }
}
