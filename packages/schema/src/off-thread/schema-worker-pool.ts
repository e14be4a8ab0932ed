import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { errorMessage } from '@agent/protocol/util';
import { type SchemaLimits, schemaDefaults } from '../limits.js';
import type { GeneratedCode } from './generated-code.js';

/** One schema sent to the worker thread, as compact JSON, with the limits it is checked against. */
export interface SchemaJob {
  id: number;
  text: string;
  limits: Required<SchemaLimits>;
}

interface Waiting {
  job: SchemaJob;
  resolve: (result: GeneratedCode) => void;
}

/** Heap the worker may use: a schema that needs more is refused, the process is unaffected. */
const WORKER_HEAP_MB = 256;

/**
 * The built worker script. From the TypeScript sources (the `@agent/source` condition, vitest)
 * Node 20 cannot start a .ts worker, so the sources use the package's built one.
 */
function workerScript(): URL {
  const here = import.meta.url;
  const script = here.endsWith('.ts')
    ? new URL('../../dist/schema-worker.js', here)
    : new URL('./schema-worker.js', here);
  if (!existsSync(script)) {
    throw new Error(
      `@agent/schema: the schema worker ${fileURLToPath(script)} is missing; run \`pnpm build\` (from the TypeScript sources, schemas compile in the built worker script)`,
    );
  }
  return script;
}

/**
 * One worker thread that compiles schemas one at a time, started on first use. Idle, it is
 * unref'd (it never keeps a process alive); while it compiles, it is ref'd so the caller's
 * promise settles. At most `compileQueueLength` schemas wait; one that compiles for longer than
 * `compileTimeoutMs` is refused, and the worker is terminated and started afresh for the next.
 */
export class SchemaWorkerPool {
  private worker: Worker | undefined;
  private ready = false;
  private readonly waiting: Waiting[] = [];
  private running: { waiting: Waiting; timer: NodeJS.Timeout } | undefined;
  private nextId = 1;
  private script: URL | undefined;

  async run(text: string, limits: Required<SchemaLimits>): Promise<GeneratedCode> {
    this.script ??= workerScript();
    const { compileQueueLength } = schemaDefaults();
    if (this.waiting.length >= compileQueueLength) {
      return {
        ok: false,
        problems: [
          `it was not compiled: ${compileQueueLength} schemas are already waiting for the schema compiler (the limit, compileQueueLength); send it again shortly`,
        ],
      };
    }
    return new Promise((resolve) => {
      this.waiting.push({ job: { id: this.nextId++, text, limits }, resolve });
      this.pump();
    });
  }

  private pump(): void {
    if (this.running !== undefined) return;
    const next = this.waiting[0];
    if (next === undefined) {
      this.worker?.unref();
      return;
    }
    const worker = this.started();
    worker.ref();
    if (!this.ready) return;
    this.waiting.shift();
    const { compileTimeoutMs } = schemaDefaults();
    const timer = setTimeout(() => this.timedOut(compileTimeoutMs, next.job.limits), compileTimeoutMs);
    this.running = { waiting: next, timer };
    worker.postMessage(next.job);
  }

  private started(): Worker {
    if (this.worker !== undefined) return this.worker;
    const worker = new Worker(this.script ?? workerScript(), {
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
    });
    worker.on('message', (message: { ready?: true; id?: number; result?: GeneratedCode }) => {
      if (worker !== this.worker) return;
      if (message.ready === true) this.ready = true;
      else if (this.running !== undefined && message.id === this.running.waiting.job.id && message.result) {
        this.finish(message.result);
      }
      this.pump();
    });
    worker.on('error', (error) => this.lost(worker, `the schema compiler failed: ${errorMessage(error)}`));
    worker.on('exit', (code) => this.lost(worker, `the schema compiler stopped (exit code ${code})`));
    this.worker = worker;
    this.ready = false;
    return worker;
  }

  private finish(result: GeneratedCode): void {
    const running = this.running;
    if (running === undefined) return;
    clearTimeout(running.timer);
    this.running = undefined;
    running.waiting.resolve(result);
  }

  private timedOut(ms: number, limits: Required<SchemaLimits>): void {
    const worker = this.worker;
    this.finish({
      ok: false,
      problems: [
        `it took longer than ${ms} ms to compile (the limit, compileTimeoutMs); a schema may have at most ${limits.maxBytes} bytes, ${limits.maxDepth} levels of nesting and ${limits.maxPatterns} patterns: send a smaller or simpler one`,
      ],
    });
    this.worker = undefined;
    void worker?.terminate();
    this.pump();
  }

  /** The worker died (out of memory, a crash): the schema it had is refused, the next one starts a new worker. */
  private lost(worker: Worker, reason: string): void {
    if (worker !== this.worker) return;
    this.worker = undefined;
    this.finish({ ok: false, problems: [reason] });
    // A worker that died before it was ready would die again: refuse what waits, start afresh later.
    if (!this.ready)
      for (const waiting of this.waiting.splice(0)) waiting.resolve({ ok: false, problems: [reason] });
    this.pump();
  }
}
