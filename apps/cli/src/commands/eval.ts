import { writeFile } from 'node:fs/promises';
import { AgentError, type EvalRunFile } from '@agent/protocol';
import { CliError, usageError } from '../cli-error.js';
import { CLI_EXIT, type CliExitCode } from '../exit-codes.js';
import { type CliIo, writeAndFlush } from '../io.js';
import { renderEvalRun } from '../output/eval-table.js';
import { formatProblem, isRuntimeError, runtimeErrorProblem } from '../runtime-errors.js';

export interface EvalCliOptions {
  agent: string;
  repeat?: string;
  concurrency?: string;
  out?: string;
  baseline?: string;
  json?: boolean;
  junit?: string;
  config?: string;
}

/**
 * `agent eval <dataset> --agent <file.ai>`: runs every case of the dataset (each a recorded
 * session under `<out>/<runId>/records`), prints a table and the summary (or `--json`, the
 * results file), writes `--junit`; exit 0 when every case passed and nothing regressed, 13
 * otherwise, 7 for an unreadable dataset, agent, config or baseline.
 */
export async function evalCommand(dataset: string, options: EvalCliOptions, io: CliIo): Promise<CliExitCode> {
  const evals = await import('@agent/evals');
  let run: EvalRunFile;
  try {
    run = await evals.evaluate({
      agent: options.agent,
      cases: dataset,
      repeat: count(options.repeat, '--repeat', 1, 100),
      concurrency: count(options.concurrency, '--concurrency', 2, 64),
      outDir: options.out ?? '.agent-evals',
      ...(options.baseline === undefined ? {} : { baseline: options.baseline }),
      resolve: {
        cwd: process.cwd(),
        ...(options.config === undefined ? {} : { configPath: options.config }),
      },
    });
  } catch (error) {
    if (AgentError.is(error, 'eval_input')) throw new CliError(error.message, CLI_EXIT.configuration);
    if (!isRuntimeError(error)) throw error;
    throw new CliError(formatProblem(runtimeErrorProblem(error, options.agent)!), CLI_EXIT.configuration);
  }
  if (options.junit !== undefined)
    await writeFile(options.junit, evals.toJUnitXml(evals.evalRunToJUnit(run)));
  await writeAndFlush(
    io.stdout,
    options.json === true ? `${JSON.stringify(run, null, 2)}\n` : renderEvalRun(run),
  );
  const regressed = (run.baseline?.regressed.length ?? 0) > 0;
  return run.summary.failed === 0 && !regressed ? CLI_EXIT.success : CLI_EXIT.regression;
}

/** A positive integer option (`--repeat 3`); usage error otherwise. */
function count(value: string | undefined, flag: string, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  if (!/^[1-9][0-9]{0,2}$/.test(value) || Number(value) > max)
    throw usageError(`${flag} must be an integer from 1 to ${max}, got ${JSON.stringify(value)}`);
  return Number(value);
}
