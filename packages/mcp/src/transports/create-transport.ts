import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpServerConfig } from '../client/config.js';
import { ProcessGroupStdioTransport } from './stdio-transport.js';
import { fetchWithTraceparent } from './trace-headers.js';
import { createWebSocketTransport } from './websocket-transport.js';

export interface TransportHooks {
  onStderrLine?: (line: string) => void;
  /** OAuth for an HTTP server (the SDK adds tokens, refreshes them and runs the flow). */
  authProvider?: OAuthClientProvider;
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
        ...(hooks.authProvider ? { authProvider: hooks.authProvider } : {}),
        fetch: fetchWithTraceparent,
      });
    case 'sse':
      return new SSEClientTransport(new URL(config.url), {
        ...(config.headers ? { requestInit: { headers: config.headers } } : {}),
        ...(hooks.authProvider ? { authProvider: hooks.authProvider } : {}),
      });
    case 'websocket':
      return createWebSocketTransport(config.url);
    case 'custom':
      return await config.createTransport();
  }
}
