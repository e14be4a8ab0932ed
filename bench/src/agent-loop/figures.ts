// The figures of one contender, each a median with its min-max spread over the runs.
import { type Spread, spread } from '../harness/measure.js';
import type { ContenderData } from './orchestrate.js';

const KB = 1024;

export interface Figures {
  id: string;
  /** By tool turns N: CPU ms per model call (N tool turns + the final one). */
  cpuPerTurnMs: Map<number, Spread>;
  /** By tool turns N: CPU ms per model call of each measured run, in run order. */
  cpuPerTurnRuns: Map<number, number[]>;
  wallPerSessionMs: Map<number, Spread>;
  eventsPerSecond: Map<number, Spread>;
  eventsPerSession: Map<number, number>;
  /** By concurrent sessions K: heap growth per in-flight session over the run's own baseline, KB. */
  heapPerSessionKB: Map<number, Spread>;
  /** By K: heap per in-flight session of each run, KB, in run order (runs are interleaved). */
  heapPerSessionRuns: Map<number, number[]>;
  /** RSS growth per in-flight session over the process's idle RSS, KB. */
  rssPerSessionKB: Map<number, Spread>;
}

export function figuresOf(data: ContenderData): Figures {
  const figures: Figures = {
    id: data.id,
    cpuPerTurnMs: new Map(),
    cpuPerTurnRuns: new Map(),
    wallPerSessionMs: new Map(),
    eventsPerSecond: new Map(),
    eventsPerSession: new Map(),
    heapPerSessionKB: new Map(),
    heapPerSessionRuns: new Map(),
    rssPerSessionKB: new Map(),
  };
  for (const cpu of data.cpu) {
    const runs = cpu.measured;
    if (runs.length === 0) continue;
    const perTurn = runs.map((run) => run.cpuMs / run.modelCalls);
    figures.cpuPerTurnMs.set(cpu.turns, spread(perTurn));
    figures.cpuPerTurnRuns.set(cpu.turns, perTurn);
    figures.wallPerSessionMs.set(cpu.turns, spread(runs.map((run) => run.wallMs / run.sessions)));
    figures.eventsPerSecond.set(cpu.turns, spread(runs.map((run) => run.events / (run.wallMs / 1000))));
    figures.eventsPerSession.set(cpu.turns, runs[0]!.events / runs[0]!.sessions);
  }
  for (const { count, runs } of data.memory) {
    if (runs.length === 0) continue;
    const heap = runs.map((run) => (run.inFlight.heapUsed - run.baseline.heapUsed) / count / KB);
    figures.heapPerSessionKB.set(count, spread(heap));
    figures.heapPerSessionRuns.set(count, heap);
    figures.rssPerSessionKB.set(
      count,
      spread(runs.map((run) => (run.inFlight.rss - data.rssBaseline) / count / KB)),
    );
  }
  return figures;
}

/** Ratio of two medians; NaN unless both are positive (a negative growth has no meaningful ratio). */
export function ratio(a: Spread | undefined, b: Spread | undefined): number {
  if (a === undefined || b === undefined || !(a.median > 0 && b.median > 0)) return Number.NaN;
  return a.median / b.median;
}

/**
 * Ratios of runs made back to back (run i of `a` over run i of `b`; the orchestrator interleaves
 * the contenders' runs), as a median with its spread: load that drifts over the measurement
 * moves both runs of a pair, so it moves their ratio less than a ratio of medians.
 */
export function pairedRatio(
  a: readonly number[] | undefined,
  b: readonly number[] | undefined,
): Spread | undefined {
  if (a === undefined || b === undefined) return undefined;
  const ratios: number[] = [];
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (a[i]! > 0 && b[i]! > 0) ratios.push(a[i]! / b[i]!);
  }
  return ratios.length === 0 ? undefined : spread(ratios);
}

/** Differences of runs made back to back (run i of `a` minus run i of `b`), as a median with its spread. */
export function pairedDifference(
  a: readonly number[] | undefined,
  b: readonly number[] | undefined,
): Spread | undefined {
  if (a === undefined || b === undefined) return undefined;
  const differences: number[] = [];
  for (let i = 0; i < Math.min(a.length, b.length); i++) differences.push(a[i]! - b[i]!);
  return differences.length === 0 ? undefined : spread(differences);
}
