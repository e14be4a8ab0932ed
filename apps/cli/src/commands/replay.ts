import { stat, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { CompareMode, ReplayResult, ReplaySuiteResult } from '@agent/evals';
import { CliError } from '../cli-error.js';
import { CLI_EXIT, type CliExitCode } from '../exit-codes.js';
import { type CliIo, writeAndFlush } from '../io.js';
import { renderReplay, renderReplaySuite, replayJson, replaySuiteJson } from '../output/replay-summary.js';
import { formatProblem, isRuntimeError, runtimeErrorProblem } from '../runtime-errors.js';

export interface ReplayCliOptions {
  agent?: string;
  liveTools?: boolean;
  compare?: CompareMode;
  json?: boolean;
  junit?: string;
  config?: string;
}

/**
 * `agent replay <record | dir>`: runs a recorded session again with the model's answers (and,
 * unless `--live-tools`, the tools' results) taken from the record, no API key needed, and
 * says where it diverged. A directory replays every record in it as a suite. Exit 0 when all
 * match under `--compare`, 13 when one diverged, 7 for a record that cannot be read or replayed.
 */
export async function replayCommand(ref: string, options: ReplayCliOptions, io: CliIo): Promise<CliExitCode> {
  const evals = await import('@agent/evals');
  const path = resolve(ref);
  const replayOptions = {
    ...(options.agent === undefined ? {} : { agent: resolve(options.agent) }),
    liveTools: options.liveTools === true,
    compare: options.compare ?? 'report',
    resolve: {
      cwd: process.cwd(),
      env: io.env,
      ...(options.config === undefined ? {} : { configPath: resolve(options.config) }),
    },
  };
  let suite: ReplaySuiteResult;
  try {
    if (await isDirectory(path)) suite = await evals.replaySuite(path, replayOptions);
    else suite = oneRecordSuite(path, await evals.replay(path, replayOptions));
  } catch (error) {
    throw unreplayable(error, ref);
  }
  if (options.junit !== undefined)
    await writeFile(options.junit, evals.toJUnitXml(evals.replaySuiteToJUnit(suite)));
  const single = suite.entries.length === 1 && !(await isDirectory(path)) ? suite.entries[0] : undefined;
  const text =
    options.json === true
      ? `${JSON.stringify(single?.result === undefined ? replaySuiteJson(suite) : replayJson(ref, single.result), null, 2)}\n`
      : single?.result === undefined
        ? renderReplaySuite(suite)
        : renderReplay(ref, single.result);
  await writeAndFlush(io.stdout, text);
  if (suite.diverged > 0) return CLI_EXIT.regression;
  return suite.errors > 0 ? CLI_EXIT.configuration : CLI_EXIT.success;
}

/** A single replayed record in the suite's terms, so `--junit` and the totals work alike. */
function oneRecordSuite(file: string, result: ReplayResult): ReplaySuiteResult {
  return {
    directory: file,
    compare: result.compare,
    entries: [{ file, sessionId: result.record.sessionId, result }],
    matched: result.match ? 1 : 0,
    diverged: result.match ? 0 : 1,
    errors: 0,
    durationMs: result.durationMs,
  };
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

/** A record that cannot be read or replayed (or a directory without records): exit 7, saying why. */
function unreplayable(error: unknown, ref: string): unknown {
  if (isRuntimeError(error))
    return new CliError(formatProblem(runtimeErrorProblem(error, ref)!), CLI_EXIT.configuration);
  if (error instanceof Error && /no session records/.test(error.message))
    return new CliError(error.message, CLI_EXIT.configuration);
  return error;
}
