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

export interface SuiteResult {
  tables: BenchTable[];
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
