import { type SchemaLimits, schemaDefaults } from '../limits.js';
import type { GeneratedCode } from './generated-code.js';
import type { SchemaJob } from './schema-worker.js';
import { builtWorkerScript, WorkerPool } from './worker-pool.js';

/** Heap the worker may use: a schema that needs more is refused, the process is unaffected. */
const WORKER_HEAP_MB = 256;

let pool: WorkerPool | undefined;

/**
 * Compiles one schema in the schema compiler's worker thread (dist/schema-worker.js, started on
 * first use, never holding the process open while idle). At most `compileQueueLength` schemas
 * wait; one not compiled within `compileTimeoutMs` is refused and the worker started afresh.
 */
export async function generateOffThread(
  text: string,
  limits: Required<SchemaLimits>,
): Promise<GeneratedCode> {
  pool ??= new WorkerPool({
    script: builtWorkerScript(import.meta.url, 'schema-worker.js', 2),
    heapMb: WORKER_HEAP_MB,
  });
  const { compileTimeoutMs, compileQueueLength } = schemaDefaults();
  const job: SchemaJob = { text, limits };
  const outcome = await pool.run<GeneratedCode>(job, {
    timeoutMs: compileTimeoutMs,
    maxQueue: compileQueueLength,
  });
  if (outcome.ok) return outcome.value;
  if (outcome.reason === 'queue-full') {
    return {
      ok: false,
      problems: [
        `it was not compiled: ${compileQueueLength} schemas are already waiting for the schema compiler (the limit, compileQueueLength); send it again shortly`,
      ],
    };
  }
  if (outcome.reason === 'timeout') {
    return {
      ok: false,
      problems: [
        `it took longer than ${compileTimeoutMs} ms to compile (the limit, compileTimeoutMs); a schema may have at most ${limits.maxBytes} bytes, ${limits.maxDepth} levels of nesting and ${limits.maxPatterns} patterns: send a smaller or simpler one`,
      ],
    };
  }
  return { ok: false, problems: [`the schema compiler failed: ${outcome.message}`] };
}
