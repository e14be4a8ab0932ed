// The measuring harness of the suite: the CPU phase (sessions one after the other) and the
// memory phase (K sessions in flight at once, held by the server on their final request).
import type { ContenderProcess } from './contender-launcher.js';
import type { CpuRun, MemorySample, SessionFailures } from './ipc.js';
import type { ServerProcess } from './server-launcher.js';

export interface CpuPlan {
  turns: number;
  /** Sessions per measured run (enough model calls that a run is not lost in timer noise). */
  sessions: number;
  runs: number;
  /** Unmeasured runs first, for the JIT and the connection pool. */
  warmup: number;
}

export interface CpuResult extends CpuPlan {
  measured: CpuRun[];
  failures: SessionFailures;
  lastAnswer: string;
  warnings: string[];
}

export async function cpuPhase(contender: ContenderProcess, plan: CpuPlan): Promise<CpuResult> {
  const reply = await contender.call({ type: 'cpu', ...plan });
  return {
    ...plan,
    measured: reply.runs,
    failures: reply.failures,
    lastAnswer: reply.lastAnswer,
    warnings: reply.warnings,
  };
}

export interface MemoryRun {
  count: number;
  baseline: MemorySample;
  inFlight: MemorySample;
  /** Sessions that reached the held final request in time. */
  reachedHold: boolean;
  completed: number;
  failures: SessionFailures;
  lastAnswer: string;
  warnings: string[];
}

/** How long the parent waits for K sessions to reach the hold before releasing anyway. */
const HOLD_TIMEOUT_MS = 90_000;
let phaseCounter = 0;

/**
 * Starts `count` sessions at once; the server holds each on its final request, so when the last
 * one arrives all K are in flight and idle. The child then samples its memory (after GC), the
 * server releases them, and every session must still end with the expected answer.
 */
export async function memoryRun(
  contender: ContenderProcess,
  server: ServerProcess,
  options: { count: number; turns: number; warmup: number },
): Promise<MemoryRun> {
  const phase = `m${process.pid}-${++phaseCounter}`;
  const heldOrTimeout = Promise.race([
    server.waitHeld(phase).then(() => true),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), HOLD_TIMEOUT_MS).unref()),
  ]);
  const started = await contender.call({
    type: 'memory-start',
    count: options.count,
    turns: options.turns,
    phase,
    warmup: options.warmup,
  });
  const reachedHold = await heldOrTimeout;
  const sampled = await contender.call({ type: 'memory-sample' });
  server.release(phase);
  const finished = await contender.call({ type: 'memory-finish' });
  return {
    count: options.count,
    baseline: started.baseline,
    inFlight: sampled.sample,
    reachedHold,
    completed: finished.completed,
    failures: finished.failures,
    lastAnswer: finished.lastAnswer,
    warnings: finished.warnings,
  };
}
