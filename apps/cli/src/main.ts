import { readFileSync } from 'node:fs';
import { errorMessage } from '@agent/protocol/util';
import { CommanderError } from 'commander';
import { CliError } from './cli-error.js';
import { CLI_EXIT, type CliExitCode } from './exit-codes.js';

export function version(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      version?: string;
    };
    return pkg.version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}

/**
 * Runs a bin (`agent`, `ai-agent`): `parse` parses argv and runs the command, which reports its
 * exit code through `setCode`. Usage errors, `CliError`s and crashes become exit codes and one
 * line on stderr prefixed with the bin's name.
 */
export function runMain(name: string, parse: (setCode: (code: CliExitCode) => void) => Promise<void>): void {
  const main = async (): Promise<CliExitCode> => {
    let code: CliExitCode = CLI_EXIT.success;
    try {
      await parse((value) => {
        code = value;
      });
      return code;
    } catch (error) {
      if (error instanceof CommanderError) {
        const ok =
          error.exitCode === 0 ||
          error.code === 'commander.helpDisplayed' ||
          error.code === 'commander.version';
        return ok ? CLI_EXIT.success : CLI_EXIT.usage;
      }
      if (error instanceof CliError) {
        process.stderr.write(`${name}: ${error.message}\n`);
        return error.exitCode;
      }
      process.stderr.write(
        `${name}: internal error: ${error instanceof Error ? (error.stack ?? error.message) : errorMessage(error)}\n`,
      );
      return CLI_EXIT.internal;
    }
  };
  main().then((code) => {
    process.exitCode = code;
    // Whatever still holds the event loop (a stuck child process) must not keep the CLI alive.
    setTimeout(() => process.exit(code), 1_000).unref();
  });
}
