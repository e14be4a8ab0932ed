import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpServerConfig } from '../client/config.js';
import { ProcessGroupStdioTransport } from './stdio-transport.js';

export interface TransportHooks {
  onStderrLine?: (line: string) => void;
}

/** Builds a fresh, not yet started transport for one connection attempt. */
export async function createTransport(
  config: McpServerConfig,
  hooks: TransportHooks = {},
): Promise<Transport> {
  switch (config.type) {
    case 'stdio':
      return new ProcessGroupStdioTransport({
        command: config.command,
        ...(config.args ? { args: config.args } : {}),
        ...(config.env ? { env: config.env } : {}),
        ...(config.cwd ? { cwd: config.cwd } : {}),
        ...(config.maxMessageBytes ? { maxMessageBytes: config.maxMessageBytes } : {}),
        ...(hooks.onStderrLine ? { onStderrLine: hooks.onStderrLine } : {}),
      });
    case 'http':
      return new StreamableHTTPClientTransport(new URL(config.url), {
        ...(config.headers ? { requestInit: { headers: config.headers } } : {}),
      });
    case 'sse':
      return new SSEClientTransport(new URL(config.url), {
        ...(config.headers ? { requestInit: { headers: config.headers } } : {}),
      });
    case 'custom':
      return await config.createTransport();
  }
}
