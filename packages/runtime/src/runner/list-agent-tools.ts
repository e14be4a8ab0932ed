import type { RunAgentFileOptions } from '../api.js';
import { buildSessionConfig, startPrivateServers } from '../session-run/session-runner.js';
import { runExpectedOutput } from './run-outcomes.js';
import { RunScope } from './run-scope.js';
import { prepareRunner } from './runner.js';

/** One tool the top agent of a file is offered. */
export interface ListedTool {
  /** The MCP server's name, or `agent` for a sub-agent. */
  server: string;
  /** The name the model calls it by (`<server>__<tool>`, `agent__<name>`). */
  name: string;
  description: string;
}

/** What `listAgentTools` found: the tools, and the servers that could not be started. */
export interface AgentToolListing {
  tools: ListedTool[];
  warnings: { server: string; message: string }[];
}

/**
 * The tools the top agent of `path` is offered, after every filter (the MCP server's, the
 * providers' and the agent's own), in the order the model sees them. Its MCP servers are
 * started for this and stopped before it returns; nothing calls a model. The runtime's own
 * tools (final report, batch, stored-output reads) are not listed.
 */
export async function listAgentTools(
  path: string,
  options: RunAgentFileOptions = {},
): Promise<AgentToolListing> {
  const { context } = await prepareRunner(path, options);
  const own = await startPrivateServers(context, context.tree.root, options.signal).catch(async (error) => {
    await Promise.all([context.mcp.close(), context.cache?.close()]);
    throw error;
  });
  try {
    const config = buildSessionConfig(
      context,
      {
        definition: context.tree.root,
        prompt: '',
        expectedOutput: runExpectedOutput(context.tree.root, {}),
        depth: 0,
        trace: { llm: false, mcp: false },
        scope: new RunScope(undefined, context.config.redact),
      },
      own,
    );
    const tools: ListedTool[] = [];
    for (const provider of config.tools ?? []) {
      if (!('listTools' in provider)) continue;
      const server = provider.kind === 'subagent' ? 'agent' : provider.id;
      for (const tool of await provider.listTools(
        options.signal === undefined ? {} : { signal: options.signal },
      ))
        tools.push({ server, name: tool.name, description: tool.description ?? '' });
    }
    const warnings = [...context.mcp.warnings, ...(own?.warnings ?? [])];
    return { tools, warnings: warnings.map(({ server, message }) => ({ server, message })) };
  } finally {
    await Promise.all([context.mcp.close(), context.cache?.close(), own?.close()]);
  }
}
