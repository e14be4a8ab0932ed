import { errorMessage } from '@agent/protocol/util';
import { listSessionRecordFiles, readSessionRecord } from '@agent/runtime';
import pLimit from 'p-limit';
import type { ReplaySuiteEntry, ReplaySuiteOptions, ReplaySuiteResult } from '../types.js';
import { replay } from './replay.js';

/** Records a suite replays at most (a directory is listed, never read whole). */
export const MAX_SUITE_RECORDS = 1000;

/** Replays run at once at most. */
export const MAX_SUITE_CONCURRENCY = 16;

/**
 * Replays every session record (`<sessionId>.json.gz`) of `dir`, `concurrency` at a time
 * (default 2), in file-name order. A record that cannot be read or replayed is an entry with
 * `error` (counted in `errors`), not a thrown error; a directory without records throws.
 */
export async function replaySuite(dir: string, options: ReplaySuiteOptions = {}): Promise<ReplaySuiteResult> {
  const started = performance.now();
  const compare = options.compare ?? 'report';
  const files = (await listSessionRecordFiles(dir, { max: MAX_SUITE_RECORDS }))
    .map((file) => file.path)
    .sort();
  if (files.length === 0) throw new Error(`${dir}: no session records (<session-id>.json.gz) to replay`);
  const concurrency = options.concurrency ?? 2;
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > MAX_SUITE_CONCURRENCY)
    throw new RangeError(
      `concurrency must be an integer from 1 to ${MAX_SUITE_CONCURRENCY}, not ${concurrency}`,
    );
  const limit = pLimit(concurrency);
  const { concurrency: _concurrency, ...replayOptions } = options;
  const entries = await Promise.all(
    files.map((file) => limit(() => replayEntry(file, { ...replayOptions, compare }))),
  );
  return {
    directory: dir,
    compare,
    entries,
    matched: entries.filter((entry) => entry.result?.match === true).length,
    diverged: entries.filter((entry) => entry.result?.match === false).length,
    errors: entries.filter((entry) => entry.error !== undefined).length,
    durationMs: Math.round(performance.now() - started),
  };
}

async function replayEntry(file: string, options: ReplaySuiteOptions): Promise<ReplaySuiteEntry> {
  let sessionId: string | undefined;
  try {
    const record = await readSessionRecord(file);
    sessionId = record.sessionId;
    const result = await replay(record, options);
    return { file, sessionId, result };
  } catch (error) {
    return { file, ...(sessionId === undefined ? {} : { sessionId }), error: errorMessage(error) };
  }
}
