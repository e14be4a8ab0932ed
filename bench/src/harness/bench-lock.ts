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
