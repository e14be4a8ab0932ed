// The headend-load report: per-contender figures, the targets with whether each is met, checks.
import { pairedRatio, ratio } from '../agent-loop/figures.js';
import { formatNumber, formatSpread, type Spread, spread } from '../harness/measure.js';
import type { BenchCheck, BenchTable } from '../harness/types.js';
import { CONTENDERS } from './contenders.js';
import type { BurstFigures } from './orchestrate.js';

/** Added latency p99 of the headend at most this times the proxy's. */
export const P99_RATIO_TARGET = 1.5;
/** Heap per in-flight served session at most this, KB. */
export const HEAP_TARGET_KB = 60;

function of(figures: readonly BurstFigures[], contender: string, concurrency: number): BurstFigures[] {
  return figures.filter((f) => f.contender === contender && f.concurrency === concurrency);
}

function spreadOf(figures: readonly BurstFigures[], pick: (f: BurstFigures) => number): Spread {
  return spread(figures.map(pick));
}

const sum = (figures: readonly BurstFigures[], pick: (f: BurstFigures) => number) =>
  figures.reduce((total, f) => total + pick(f), 0);

export function figuresTable(figures: readonly BurstFigures[], concurrencies: readonly number[]): BenchTable {
  const rows: (string | number)[][] = [];
  for (const concurrency of concurrencies) {
    for (const contender of CONTENDERS) {
      const runs = of(figures, contender.id, concurrency);
      rows.push([
        concurrency,
        contender.label,
        runs.length,
        sum(runs, (f) => f.ok),
        sum(runs, (f) => f.failed),
        sum(runs, (f) => f.lost),
        formatSpread(spreadOf(runs, (f) => f.addedP50)),
        formatSpread(spreadOf(runs, (f) => f.addedP99)),
        formatSpread(spreadOf(runs, (f) => f.heapKbPerSession)),
        formatSpread(spreadOf(runs, (f) => f.rssKbPerSession)),
        formatSpread(spreadOf(runs, (f) => f.retainedKbPerSession)),
        formatSpread(
          spreadOf(runs, (f) => f.cpuMsPerSession),
          2,
        ),
      ]);
    }
  }
  return {
    caption: 'Served path: each contender under the same bursts, median (min-max) over the runs',
    columns: [
      'concurrent',
      'contender',
      'runs',
      'ok',
      'failed',
      'lost',
      'added p50 ms',
      'added p99 ms',
      'peak heap KB / session',
      'peak RSS KB / session',
      'retained heap KB / session',
      'server CPU ms / session',
    ],
    rows,
  };
}

/** Met or not by the median, saying so when the runs fell on both sides of the target. */
function verdict(figure: Spread, target: number): string {
  const met = figure.median <= target ? 'met' : 'not met';
  return figure.min <= target && figure.max > target ? `${met} (the runs fall on both sides)` : met;
}

export interface TargetVerdict {
  target: string;
  concurrency: number;
  figure: number;
  met: boolean;
}

export function targetsTable(
  figures: readonly BurstFigures[],
  concurrencies: readonly number[],
): { table: BenchTable; verdicts: TargetVerdict[] } {
  const rows: (string | number)[][] = [];
  const verdicts: TargetVerdict[] = [];
  for (const concurrency of concurrencies) {
    const headend = of(figures, 'headend', concurrency);
    const proxy = of(figures, 'proxy', concurrency);
    // Run i of each was made back to back (the order flipped every run).
    const ratios =
      pairedRatio(
        headend.map((f) => f.addedP99),
        proxy.map((f) => f.addedP99),
      ) ?? spread([Number.NaN]);
    const ratioMet = ratios.median <= P99_RATIO_TARGET;
    verdicts.push({ target: 'p99 ratio', concurrency, figure: ratios.median, met: ratioMet });
    rows.push([
      `added p99 at ${concurrency} streams <= ${P99_RATIO_TARGET}x the proxy's`,
      `${formatSpread(spreadOf(headend, (f) => f.addedP99))} ms`,
      `${formatSpread(spreadOf(proxy, (f) => f.addedP99))} ms`,
      `${formatSpread(ratios, 2)}x`,
      verdict(ratios, P99_RATIO_TARGET),
    ]);
    const heap = spreadOf(headend, (f) => f.heapKbPerSession);
    const heapMet = heap.median <= HEAP_TARGET_KB;
    verdicts.push({ target: 'heap per session', concurrency, figure: heap.median, met: heapMet });
    rows.push([
      `heap per in-flight session at ${concurrency} streams <= ${HEAP_TARGET_KB} KB`,
      `${formatSpread(heap)} KB`,
      `${formatSpread(spreadOf(proxy, (f) => f.heapKbPerSession))} KB`,
      `${formatNumber(
        ratio(
          heap,
          spreadOf(proxy, (f) => f.heapKbPerSession),
        ),
        2,
      )}x`,
      verdict(heap, HEAP_TARGET_KB),
    ]);
  }
  return {
    table: {
      caption:
        'Targets (issue 20, served path): the headend against the pass-through proxy, same run; headend / proxy is the median (min-max) of the per-run ratios for p99, the ratio of the medians for heap',
      columns: ['target', 'headend', 'proxy', 'headend / proxy', 'verdict'],
      rows,
    },
    verdicts,
  };
}

export function completionChecks(
  figures: readonly BurstFigures[],
  concurrencies: readonly number[],
): BenchCheck[] {
  return concurrencies.flatMap((concurrency) =>
    CONTENDERS.map((contender): BenchCheck => {
      const runs = of(figures, contender.id, concurrency);
      const failed = sum(runs, (f) => f.failed);
      const lost = sum(runs, (f) => f.lost);
      const first = runs.find((f) => f.firstProblem !== undefined)?.firstProblem;
      return {
        name: `${contender.label}: ${runs.length} x ${concurrency} concurrent streams, the scripted text, 0 failed, 0 lost`,
        ok: runs.length > 0 && failed === 0 && lost === 0,
        detail: `${sum(runs, (f) => f.ok)} ok, ${failed} failed, ${lost} lost${first ? `; first: ${first}` : ''}`,
      };
    }),
  );
}
