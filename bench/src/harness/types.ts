/** One table of a benchmark report. */
export interface BenchTable {
  caption: string;
  columns: string[];
  rows: (string | number)[][];
}

/** A check a quick run must pass (for example: the contender produced the expected answer). */
export interface BenchCheck {
  name: string;
  ok: boolean;
  detail?: string;
}

/**
 * One performance target (issue 42's list and earlier ones) and how this run did against it.
 * `docs/benchmarks.md` opens with every stored suite's targets in one table.
 */
export interface BenchTarget {
  /** What is measured, e.g. "CPU per turn, N=5, x raw-loop". */
  target: string;
  /** The bound, e.g. "<= 1.10x". */
  limit: string;
  /** This run's figure with its spread, e.g. "1.07x (0.98-1.21)". */
  measured: string;
  /** `met`: the median is within the limit; `missed`: it is not; `noise`: the median is within it but the spread crosses it (or the reverse). */
  verdict: 'met' | 'missed' | 'noise';
  /** Required unless met: why, and where the profile that shows it is. */
  why?: string;
}

export interface SuiteResult {
  tables: BenchTable[];
  /** The targets this suite measures, each with its verdict (rendered at the top of the report). */
  targets?: BenchTarget[];
  /** Plain sentences shown under the tables: method, targets, caveats. */
  notes?: string[];
  checks?: BenchCheck[];
  /** Everything measured, as JSON, written beside the report. */
  raw: unknown;
}

export interface BenchSuite {
  id: string;
  title: string;
  /** What is measured and how, in a sentence or two. */
  description: string;
  run(options: { quick: boolean }): Promise<SuiteResult>;
}
