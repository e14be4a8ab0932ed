import { builtWorkerScript, type WorkerOutcome, WorkerPool } from '@agent/schema/worker-pool';
import type { ViewerJob } from './record-worker.js';

/** The longest one file may take to read in the worker (it is left out past that). */
const READ_TIMEOUT_MS = 30_000;
/** Files that may wait for the worker; more are answered as not found at once. */
const READ_QUEUE = 16;
/** Heap of the worker: room for the largest record the reader takes (16 MiB inflated), a bound for a hostile one. */
const WORKER_HEAP_MB = 1024;

let pool: WorkerPool | undefined;

/**
 * Reads one file (a session record, an eval run's results) and makes what the page shows of it
 * in the viewer's worker thread (dist/record-worker.js), so the event loop never inflates or
 * parses one.
 */
export function runInViewerWorker<T>(job: ViewerJob): Promise<WorkerOutcome<T>> {
  pool ??= new WorkerPool({
    script: builtWorkerScript(import.meta.url, 'record-worker.js', 2),
    heapMb: WORKER_HEAP_MB,
  });
  return pool.run<T>(job, { timeoutMs: READ_TIMEOUT_MS, maxQueue: READ_QUEUE });
}
