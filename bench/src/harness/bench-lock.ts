import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** One lock per machine: two bench runs at once would each measure the other's load. */
export const BENCH_LOCK_FILE = join(tmpdir(), 'agent-runtime-bench.lock');

/**
 * Takes the machine's bench lock (a file holding the owner's pid, created exclusively), or
 * says which live process holds it. A lock left by a process that is gone is taken over.
 * Returns the release function.
 */
export function takeBenchLock(file = BENCH_LOCK_FILE): () => void {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number.parseInt(readFileSync(file, 'utf8'), 10);
      if (Number.isInteger(owner) && owner > 0 && alive(owner)) {
        throw new Error(
          `another bench run (pid ${owner}) holds ${file}: wait for it, or remove the file if it is stale`,
        );
      }
      rmSync(file, { force: true });
    }
  }
  throw new Error(`could not take the bench lock ${file}`);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Waits (polling every 2 s, at most `BENCH_LOCK_WAIT_MS`, default 30 min) for the machine's
 * bench lock; says once on stderr whom it waits for (the bench is an app: it owns its terminal).
 */
export async function waitForBenchLock(file = BENCH_LOCK_FILE): Promise<() => void> {
  const limitMs = Number(process.env.BENCH_LOCK_WAIT_MS ?? 30 * 60_000);
  const started = Date.now();
  let told = false;
  for (;;) {
    try {
      return takeBenchLock(file);
    } catch (error) {
      if (!/another bench run/.test((error as Error).message) || Date.now() - started > limitMs) throw error;
      if (!told) console.error(`${(error as Error).message}; waiting`);
      told = true;
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
  }
}
