import type { BenchTarget } from './types.js';

/** A measured ratio or amount: its median and the min-max of the runs. */
export interface Spread {
  median: number;
  min: number;
  max: number;
}

/**
 * The verdict of an upper bound (`measured <= limit`): met when the median and the worst run
 * are within it, missed when the median and the best run are over it, noise otherwise.
 */
export function upperBoundVerdict(measured: Spread, limit: number): BenchTarget['verdict'] {
  if (measured.median <= limit) return measured.max <= limit ? 'met' : 'noise';
  return measured.min > limit ? 'missed' : 'noise';
}

/** The verdict of a lower bound (`measured >= limit`), the mirror of `upperBoundVerdict`. */
export function lowerBoundVerdict(measured: Spread, limit: number): BenchTarget['verdict'] {
  if (measured.median >= limit) return measured.min >= limit ? 'met' : 'noise';
  return measured.max < limit ? 'missed' : 'noise';
}

/** `1.07x (0.98-1.21)`: a ratio with its spread, as the target table shows it. */
export function formatRatio(measured: Spread, digits = 2): string {
  return `${measured.median.toFixed(digits)}x (${measured.min.toFixed(digits)}-${measured.max.toFixed(digits)})`;
}
