import {
  type BaselineComparison,
  EVAL_RUN_KIND,
  EVAL_RUN_VERSION,
  type EvalRunFile,
  type EvalSummary,
} from '@agent/protocol';
import { errorMessage, isRecord } from '@agent/protocol/util';
import { readRegularFile } from '@agent/runtime';

/** The largest `results.json` the viewer reads (a run of thousands of cases stays far below). */
export const MAX_EVAL_RUN_BYTES = 16 * 1024 * 1024;

/** An eval run's id, as `@agent/evals` makes it: also its directory's name (never `.` or `..`). */
export const EVAL_RUN_ID = /^(?!\.+$)[\w.-]{1,100}$/;

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

/**
 * Reads an eval run's `results.json` (an `EvalRunFile`): a regular file of at most
 * `MAX_EVAL_RUN_BYTES`, of this kind and a version this server reads. Throws with what is wrong.
 */
export function readEvalRun(path: string): EvalRunFile {
  const read = readRegularFile(path, MAX_EVAL_RUN_BYTES);
  if (!read.ok) throw new Error(`${path}: ${read.detail}`);
  let value: unknown;
  try {
    value = JSON.parse(read.text);
  } catch (error) {
    throw new Error(`${path}: not an eval run: the content is not JSON (${errorMessage(error)})`);
  }
  if (!isRecord(value) || value.kind !== EVAL_RUN_KIND)
    throw new Error(`${path}: not an eval run: expected JSON with "kind": "${EVAL_RUN_KIND}"`);
  const { version } = value;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1)
    throw new Error(`${path}: not an eval run: "version" is not a positive integer`);
  if (version > EVAL_RUN_VERSION)
    throw new Error(
      `${path}: eval run version ${version} is newer than this agent-server reads (up to ${EVAL_RUN_VERSION}): upgrade agent-server to show it`,
    );
  if (!isRecord(value.summary) || !Array.isArray(value.cases) || typeof value.runId !== 'string')
    throw new Error(`${path}: not an eval run: "runId", "summary" or "cases" is missing`);
  return value as unknown as EvalRunFile;
}

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
