import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { errorMessage } from '@agent/protocol/util';
import type { Piscina } from 'piscina';

/** What a task in the worker came to: its value, or why there is none. */
export type WorkerOutcome<T> =
  | { ok: true; value: T }
  | { ok: false; reason: 'timeout' | 'queue-full' | 'failed'; message: string };

export interface WorkerPoolOptions {
  /** The built worker script (see `builtWorkerScript`); its default export runs one task. */
  script: URL;
  /** Heap the worker may use: a task that needs more fails, the process is unaffected. */
  heapMb: number;
}

export interface WorkerTaskLimits {
  /** From the moment the task is handed over (waiting included): then it fails and the worker is restarted. */
  timeoutMs: number;
  /** At most this many tasks wait; one more fails at once. */
  maxQueue: number;
}

/**
 * The built worker script `name` of the package whose module `moduleUrl` is (its `import.meta.url`).
 * From the TypeScript sources (the `@agent/source` condition, vitest) Node 20 cannot start a .ts
 * worker, so the sources use the package's built one at `<package>/dist/<name>`, `levels` folders up.
 */
export function builtWorkerScript(moduleUrl: string, name: string, levels: number): URL {
  const script = moduleUrl.endsWith('.ts')
    ? new URL(`${'../'.repeat(levels)}dist/${name}`, moduleUrl)
    : new URL(`./${name}`, moduleUrl);
  if (!existsSync(script)) {
    throw new Error(
      `the worker script ${fileURLToPath(script)} is missing; run \`pnpm build\` (from the TypeScript sources, workers run the built script)`,
    );
  }
  return script;
}

/**
 * One worker thread (piscina) that runs tasks one at a time, started on first use. Idle, it never
 * keeps the process alive; while it runs a task, it does. A task past its time limit is aborted:
 * piscina terminates the worker and starts a new one for the next task.
 */
export class WorkerPool {
  private pool: Piscina | undefined;

  constructor(private readonly options: WorkerPoolOptions) {}

  async run<T>(task: unknown, limits: WorkerTaskLimits): Promise<WorkerOutcome<T>> {
    // piscina is loaded with the first task: a process that never runs one does not pay for it.
    if (this.pool === undefined) {
      const { Piscina: Pool } = await import('piscina');
      // minThreads 1, not 0: with no thread left after an abort, piscina 5.3 leaves queued tasks
      // waiting forever. Its thread is unref'd while idle, so it never holds the process open.
      this.pool ??= new Pool({
        filename: this.options.script.href,
        minThreads: 1,
        maxThreads: 1,
        idleTimeout: Number.POSITIVE_INFINITY,
        execArgv: [],
        resourceLimits: { maxOldGenerationSizeMb: this.options.heapMb },
      });
    }
    // Checked here, not with piscina's maxQueue, so the limit can change while the pool lives.
    if (this.pool.queueSize >= limits.maxQueue) {
      return { ok: false, reason: 'queue-full', message: `${limits.maxQueue} tasks are already waiting` };
    }
    const signal = AbortSignal.timeout(limits.timeoutMs);
    try {
      return { ok: true, value: (await this.pool.run(task, { signal })) as T };
    } catch (error) {
      if (signal.aborted) {
        return { ok: false, reason: 'timeout', message: `it took longer than ${limits.timeoutMs} ms` };
      }
      return { ok: false, reason: 'failed', message: errorMessage(error) };
    }
  }

  /** Stops the worker (tests, shutdown); the next task starts a new pool. */
  async close(): Promise<void> {
    const pool = this.pool;
    this.pool = undefined;
    await pool?.destroy();
  }
}
