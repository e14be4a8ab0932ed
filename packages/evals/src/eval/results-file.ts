import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type EvalRunFile, evalRunProblem } from '@agent/protocol';
import { readBoundedFile } from './bounded-read.js';
import { EvalInputError } from './errors.js';

/** Largest results file read back (`--baseline`). */
export const MAX_RESULTS_BYTES = 64 * 1024 * 1024;
export const RESULTS_FILE_NAME = 'results.json';

/** Writes `<runDir>/results.json` (through a temporary file: a reader never sees half of it). */
export async function writeEvalRun(runDir: string, run: EvalRunFile): Promise<string> {
  await mkdir(runDir, { recursive: true });
  const path = join(runDir, RESULTS_FILE_NAME);
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(run, null, 2)}\n`);
  await rename(temporary, path);
  return path;
}

/** Reads a results file, refusing another kind of file and a newer version than this one reads. */
export async function readEvalRun(path: string): Promise<EvalRunFile> {
  const text = readBoundedFile(path, MAX_RESULTS_BYTES, 'results file');
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new EvalInputError(`results file ${path} is not JSON`);
  }
  return checkedEvalRun(data, path);
}

/** An eval run's results as given in code or read from a file, checked. */
export function checkedEvalRun(data: unknown, label: string): EvalRunFile {
  const problem = evalRunProblem(data);
  if (problem !== undefined) throw new EvalInputError(`${label}: ${problem}`);
  return data as EvalRunFile;
}
