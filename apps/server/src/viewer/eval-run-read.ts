import { type EvalRunFile, evalRunProblem } from '@agent/protocol';
import { errorMessage } from '@agent/protocol/util';
import { readRegularFile } from '@agent/runtime';

/** The largest `results.json` the viewer reads (a run of thousands of cases stays far below). */
export const MAX_EVAL_RUN_BYTES = 16 * 1024 * 1024;

/** An eval run's id, as `@agent/evals` makes it: also its directory's name (never `.` or `..`). */
export const EVAL_RUN_ID = /^(?!\.+$)[\w.-]{1,100}$/;

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
  const problem = evalRunProblem(value);
  if (problem !== undefined) throw new Error(`${path}: ${problem}`);
  return value as EvalRunFile;
}
