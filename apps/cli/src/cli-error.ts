import { AgentError } from '@agent/protocol';
import { CLI_EXIT, type CliExitCode } from './exit-codes.js';

/** An error the CLI reports as one line on stderr and ends with `exitCode` (code `cli_exit`). */
export class CliError extends AgentError {
  override readonly name = 'CliError';

  constructor(
    message: string,
    readonly exitCode: CliExitCode,
  ) {
    super('cli_exit', message);
  }
}

/** Bad arguments (exit 2). */
export function usageError(message: string): CliError {
  return new CliError(message, CLI_EXIT.usage);
}
