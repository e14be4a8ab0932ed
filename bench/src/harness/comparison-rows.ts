import { formatNumber } from './measure.js';

/** One row of a side-by-side table: a label and the figures of the two sides. */
export interface ComparedFigure {
  label: string;
  a: number;
  b: number;
}

/** Each figure of both sides and their difference (a - b), whole numbers, then the total row. */
export function comparisonRows(rows: readonly ComparedFigure[], total: ComparedFigure): string[][] {
  return [...rows, total].map(({ label, a, b }) => [
    label,
    formatNumber(a, 0),
    formatNumber(b, 0),
    formatNumber(a - b, 0),
  ]);
}
