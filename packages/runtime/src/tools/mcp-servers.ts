import { resolve } from 'node:path';
import type { McpServerConfig } from '@agent/mcp';
import { errorMessage } from '@agent/protocol/util';
import type { ResolveOptions } from '../api.js';
import { resolveConfig } from '../config/layers.js';
import { mcpServerConfig } from './build-tools.js';

/** One `mcpServers` entry of the config in effect: its client config, or why it is unusable. */
export interface ConfiguredMcpServer {
  name: string;
  config?: McpServerConfig;
  problem?: string;
}

/** The MCP servers the config layers define (for `agent mcp login|logout|list`). */
export function configuredMcpServers(options: ResolveOptions = {}): ConfiguredMcpServer[] {
  const config = resolveConfig({ ...options, cwd: resolve(options.cwd ?? process.cwd()) });
  return [...config.mcpServers.values()].map((entry) => {
    try {
      return { name: entry.name, config: mcpServerConfig(entry) };
    } catch (error) {
      return { name: entry.name, problem: errorMessage(error) };
    }
  });
}
