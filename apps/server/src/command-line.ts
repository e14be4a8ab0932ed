import type { Command } from 'commander';

/** A repeatable flag's values, in the order given. */
export const collect = (value: string, previous: string[] = []) => [...previous, value];

/**
 * Parses the user's arguments with `program`. Help goes to stderr (stdout may carry MCP over
 * stdio), and a bad flag or `--help` throws a `CommanderError` instead of exiting.
 */
export function parseCommandLine(program: Command, argv: string[]): void {
  program.exitOverride().configureOutput({ writeOut: (text) => process.stderr.write(text) });
  program.parse(argv, { from: 'user' });
}
