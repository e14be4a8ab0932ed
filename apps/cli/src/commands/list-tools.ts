import type { ListedTool } from '@agent/runtime';
import { CliError } from '../cli-error.js';
import { CLI_EXIT, type CliExitCode } from '../exit-codes.js';
import { type CliIo, writeAndFlush } from '../io.js';
import { formatProblem, runtimeErrorProblem } from '../runtime-errors.js';

export interface ListToolsCliOptions {
  config?: string;
}

/**
 * `ai-agent --list-tools`: every tool the agent is offered, one line each (server, name,
 * description), after all filters. Its MCP servers are started for this; a server that cannot
 * start is a warning on stderr and exit code 6 (its tools are missing from the list).
 */
export async function listToolsCommand(
  file: string,
  options: ListToolsCliOptions,
  io: CliIo,
): Promise<CliExitCode> {
  let listing: Awaited<ReturnType<typeof import('@agent/runtime').listAgentTools>>;
  try {
    const { listAgentTools } = await import('@agent/runtime');
    listing = await listAgentTools(file, options.config === undefined ? {} : { configPath: options.config });
  } catch (error) {
    const problem = runtimeErrorProblem(error, options.config ?? file);
    if (problem === undefined) throw error;
    throw new CliError(formatProblem(problem), CLI_EXIT.configuration);
  }
  for (const warning of listing.warnings) io.stderr.write(`warning: ${warning.message}\n`);
  await writeAndFlush(io.stdout, formatTools(listing.tools));
  return listing.warnings.length === 0 ? CLI_EXIT.success : CLI_EXIT.tools;
}

/** Aligned columns; a description is shown on one line (its whitespace collapsed). */
export function formatTools(tools: readonly ListedTool[]): string {
  if (tools.length === 0) return '(no tools)\n';
  const rows = [
    ['SERVER', 'TOOL', 'DESCRIPTION'],
    ...tools.map((tool) => [tool.server, tool.name, tool.description.replace(/\s+/g, ' ').trim()]),
  ];
  const widths = [0, 1].map((column) => Math.max(...rows.map((row) => row[column]!.length)));
  return `${rows
    .map((row) => `${row[0]!.padEnd(widths[0]!)}  ${row[1]!.padEnd(widths[1]!)}  ${row[2]}`.trimEnd())
    .join('\n')}\n`;
}
