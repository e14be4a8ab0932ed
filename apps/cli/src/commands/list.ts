import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentSummary, ConfigSummary } from '@agent/runtime';
import { CliError } from '../cli-error.js';
import { CLI_EXIT, type CliExitCode } from '../exit-codes.js';
import { type CliIo, writeAndFlush } from '../io.js';
import { orchestrationLines } from '../output/orchestration.js';
import { formatProblem, runtimeErrorProblem } from '../runtime-errors.js';

export interface ListCliOptions {
  agent?: string[];
  config?: string;
  json?: boolean;
}

/** The `.ai` files of a directory, sorted by name. */
export function agentFilesIn(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ai'))
    .map((entry) => join(dir, entry.name))
    .sort();
}

/** `agent list`: the agents (from `--agent` files or the `.ai` files in the cwd) and what the config provides. */
export async function listCommand(
  options: ListCliOptions,
  io: CliIo,
  cwd = process.cwd(),
): Promise<CliExitCode> {
  const agentFiles =
    options.agent !== undefined && options.agent.length > 0 ? options.agent : agentFilesIn(cwd);
  let described: { config: ConfigSummary; agents: AgentSummary[] };
  try {
    const { describeConfig } = await import('@agent/runtime');
    described = await describeConfig({
      cwd,
      agentFiles,
      ...(options.config === undefined ? {} : { configPath: options.config }),
    });
  } catch (error) {
    const problem = runtimeErrorProblem(error, options.config ?? agentFiles[0] ?? cwd);
    if (problem === undefined) throw error;
    throw new CliError(formatProblem(problem), CLI_EXIT.configuration);
  }
  const text = options.json === true ? `${JSON.stringify(described, null, 2)}\n` : formatListing(described);
  await writeAndFlush(io.stdout, text);
  return CLI_EXIT.success;
}

export function formatListing(described: { config: ConfigSummary; agents: AgentSummary[] }): string {
  const { config, agents } = described;
  const lines: string[] = [];
  lines.push('Config files:');
  if (config.layers.length === 0) lines.push('  (none found)');
  for (const layer of config.layers) lines.push(`  ${layer}`);
  lines.push('', 'Providers:');
  if (config.providers.length === 0) lines.push('  (none)');
  for (const provider of config.providers) {
    const models = provider.models.length === 0 ? '' : `: ${provider.models.join(', ')}`;
    lines.push(`  ${provider.name} (${provider.type})${models}`);
  }
  lines.push('', 'MCP servers:');
  if (config.mcpServers.length === 0) lines.push('  (none)');
  for (const server of config.mcpServers) lines.push(`  ${server.name} (${server.type})`);
  if (config.httpApis.length > 0) {
    lines.push('', 'HTTP APIs:');
    for (const api of config.httpApis) lines.push(`  ${api.name} (${api.type})`);
  }
  lines.push('', 'Agents:');
  if (agents.length === 0) lines.push('  (none)');
  for (const agent of agents) {
    lines.push(`  ${agent.toolName}  ${agent.file}`);
    if (agent.description !== undefined) lines.push(`    ${agent.description}`);
    lines.push(`    models: ${agent.models.join(', ') || '(none)'}`);
    lines.push(`    tools: ${agent.tools.join(', ') || '(none)'}`);
    if (agent.subAgents.length > 0) lines.push(`    sub-agents: ${agent.subAgents.join(', ')}`);
    for (const line of orchestrationLines(agent.orchestration)) lines.push(`    ${line}`);
    lines.push(`    output: ${agent.outputFormat}`);
    if (agent.usage !== undefined) lines.push(`    usage: ${agent.usage}`);
  }
  return `${lines.join('\n')}\n`;
}
