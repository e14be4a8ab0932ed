import { CLI_EXIT, type CliExitCode } from './exit-codes.js';

/** An error the CLI reports as one line on stderr and ends with `exitCode`. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: CliExitCode,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/** Bad arguments (exit 2). */
export function usageError(message: string): CliError {
  return new CliError(message, CLI_EXIT.usage);
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
