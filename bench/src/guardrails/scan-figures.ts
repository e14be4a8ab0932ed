// Part (a) of the guardrails suite: a check run over one whole report text at three sizes,
// timed, so the time per MB at each size shows whether the cost stays linear.
import { formatNumber, type Spread, spread, timeRuns } from '../harness/measure.js';
import type { BenchCheck, BenchTable } from '../harness/types.js';
import { reportText } from './report-text.js';

const MB = 1024 * 1024;

/** One check over a text: answers whether it found the planted finding. */
export interface TextChecker {
  label: string;
  find(text: string): boolean | Promise<boolean>;
}

export interface SizeFigures {
  bytes: number;
  msPerRun: Spread;
  msPerMb: number;
}

export interface CheckerFigures {
  label: string;
  sizes: SizeFigures[];
  /** Time per MB of the largest text over that of the smallest: 1 is linear. */
  ratio: number;
}

/** Times `checker` over a report of each size (`runs` runs each, after one warm-up). */
export async function measureChecker(
  checker: TextChecker,
  sizes: readonly number[],
  runs: number,
  checks: BenchCheck[],
): Promise<CheckerFigures> {
  const figures: SizeFigures[] = [];
  for (const bytes of sizes) {
    const text = reportText(bytes);
    const found = await checker.find(text);
    checks.push({
      name: `${checker.label}: finds the finding planted at the end of ${sizeLabel(bytes)}`,
      ok: found,
    });
    const times = await timeRuns(() => checker.find(text), runs, 1);
    const msPerRun = spread(times);
    figures.push({ bytes, msPerRun, msPerMb: msPerRun.median / (bytes / MB) });
  }
  const ratio = figures[figures.length - 1]!.msPerMb / figures[0]!.msPerMb;
  return { label: checker.label, sizes: figures, ratio };
}

export function sizeLabel(bytes: number): string {
  return bytes >= MB ? `${formatNumber(bytes / MB, 0)} MB` : `${formatNumber(bytes / 1024, 0)} KB`;
}

/** One row per checker: ms per MB at each size side by side, and the ratio largest / smallest. */
export function scanTable(
  all: readonly CheckerFigures[],
  sizes: readonly number[],
  runs: number,
): BenchTable {
  return {
    caption: `A check over the whole report text (median of ${runs} runs; ms per MB at each size)`,
    columns: [
      'check',
      ...sizes.map((bytes) => `${sizeLabel(bytes)}: ms per MB`),
      `ratio ${sizeLabel(sizes[sizes.length - 1]!)} / ${sizeLabel(sizes[0]!)}`,
    ],
    rows: all.map((figures) => [
      figures.label,
      ...figures.sizes.map((size) => formatNumber(size.msPerMb, 2)),
      formatNumber(figures.ratio, 2),
    ]),
  };
}
