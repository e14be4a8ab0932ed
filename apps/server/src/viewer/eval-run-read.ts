import { EVAL_RUN_KIND, EVAL_RUN_VERSION, type EvalRunFile } from '@agent/protocol';
import { errorMessage, isRecord } from '@agent/protocol/util';
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
