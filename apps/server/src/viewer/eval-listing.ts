// What the runs list shows of an eval run (no Node API in it: the page takes its types).
import type { BaselineComparison, EvalRunFile, EvalSummary } from '@agent/protocol';

/** What the runs list shows of one run (`GET /api/evals`). */
export interface EvalRunListing {
  runId: string;
  agent: string;
  dataset: string;
  startedAt: number;
  summary: EvalSummary;
  /** How many cases got better, worse, stayed, came and went against the baseline, if compared. */
  baseline?: { runId: string } & Record<Exclude<keyof BaselineComparison, 'runId' | 'scores'>, number>;
}

/** A run directory whose results could not be read: listed with why. */
export interface UnreadableEvalRun {
  runId: string;
  error: string;
}

export type EvalRunEntry = EvalRunListing | UnreadableEvalRun;

/** A run's line in the runs list. */
export function evalRunListing(run: EvalRunFile): EvalRunListing {
  const { baseline } = run;
  return {
    runId: run.runId,
    agent: run.agent,
    dataset: run.dataset,
    startedAt: run.startedAt,
    summary: run.summary,
    ...(baseline === undefined
      ? {}
      : {
          baseline: {
            runId: baseline.runId,
            improved: baseline.improved.length,
            regressed: baseline.regressed.length,
            unchanged: baseline.unchanged.length,
            added: baseline.added.length,
            removed: baseline.removed.length,
          },
        }),
  };
}
