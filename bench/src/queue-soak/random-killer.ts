// The soaks' worker killer: SIGKILLs a random worker of the fleet at intervals and starts a new
// one in its slot, until stopped.
import type { Fleet } from './fleet.js';

export interface Kill {
  at: number;
  worker: string;
}

export interface KillerOptions {
  /** Milliseconds between kills: drawn evenly from [min, max] before each kill. */
  everyMs: { min: number; max: number };
  /** Runs right after a kill, before the slot's new worker starts (the killed worker's state is frozen then). */
  afterKill?: (kill: Kill) => Promise<void>;
  /**
   * Start the new worker in the background: the next interval starts at the kill, not once the
   * new worker takes jobs. A kill still waits for the previous restart (never two workers down
   * at once), so kills come every max(interval, a worker's start-up time).
   */
  restartInBackground?: boolean;
}

export class RandomKiller {
  readonly kills: Kill[] = [];
  private killing = true;
  private readonly loop: Promise<void>;
  private readonly restarting = new Map<number, Promise<void>>();

  constructor(
    private readonly fleet: Fleet,
    private readonly options: KillerOptions,
  ) {
    this.loop = this.killUntilStopped();
  }

  /** Stops after the kill and restarts under way, if any; resolves when they are done. */
  async stop(): Promise<void> {
    this.killing = false;
    await this.loop;
    await Promise.allSettled(this.restarting.values());
  }

  private async killUntilStopped(): Promise<void> {
    const { min, max } = this.options.everyMs;
    while (this.killing) {
      await new Promise((resolve) => setTimeout(resolve, min + Math.random() * (max - min)));
      if (!this.killing) break;
      await Promise.allSettled(this.restarting.values());
      if (!this.killing) break;
      const running = this.fleet.workers.flatMap((child, slot) =>
        child !== undefined && !this.restarting.has(slot) ? [slot] : [],
      );
      const slot = running[Math.floor(Math.random() * running.length)];
      if (slot === undefined) continue;
      const at = Date.now();
      const worker = await this.fleet.killWorker(slot);
      if (worker !== undefined) {
        this.kills.push({ at, worker });
        await this.options.afterKill?.({ at, worker });
      }
      const restart = this.fleet.startWorker(slot).finally(() => this.restarting.delete(slot));
      this.restarting.set(slot, restart);
      if (this.options.restartInBackground !== true) await restart;
    }
  }
}
