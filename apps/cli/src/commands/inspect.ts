import type { SessionRecord } from '@agent/protocol';
import { CliError } from '../cli-error.js';
import { CLI_EXIT, type CliExitCode } from '../exit-codes.js';
import { type CliIo, writeAndFlush } from '../io.js';
import { renderSessionRecord } from '../output/session-tree.js';
import { formatProblem, isRuntimeError, runtimeErrorProblem } from '../runtime-errors.js';

export interface InspectCliOptions {
  config?: string;
  json?: boolean;
  full?: boolean;
}

/**
 * `agent inspect <file | session-id>`: a session record (`persistence.sessionsDir`) as a tree
 * with tokens, cost and durations per node, or (`--json`) the record itself. A missing
 * record, a file that is not one, or one of a newer version: exit 7 with what was wrong.
 */
export async function inspectCommand(
  ref: string,
  options: InspectCliOptions,
  io: CliIo,
  cwd = process.cwd(),
): Promise<CliExitCode> {
  let record: SessionRecord;
  try {
    const runtime = await import('@agent/runtime');
    const sessionsDir = () =>
      runtime.configuredSessionsDir({
        cwd,
        ...(options.config === undefined ? {} : { configPath: options.config }),
      });
    record = await runtime.readSessionRecord(await runtime.findSessionRecord(ref, sessionsDir));
  } catch (error) {
    if (!isRuntimeError(error)) throw error;
    const problem = runtimeErrorProblem(error, options.config ?? ref);
    throw new CliError(formatProblem(problem!), CLI_EXIT.configuration);
  }
  const text =
    options.json === true
      ? `${JSON.stringify(record, null, 2)}\n`
      : renderSessionRecord(record, { full: options.full === true });
  await writeAndFlush(io.stdout, text);
  return CLI_EXIT.success;
}
