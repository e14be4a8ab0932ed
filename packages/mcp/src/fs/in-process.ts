import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { McpServerCommonConfig } from '../client/config.js';
import { McpToolProvider, type McpToolProviderOptions } from '../client/mcp-tool-provider.js';
import { createFsServer, type FsServerOptions } from './fs-server.js';

export interface InProcessFsProviderOptions extends FsServerOptions, McpToolProviderOptions {
  /** Provider id and tool-name prefix (default `fs`: tools are `fs__Read`, ... unless `naming: 'bare'`). */
  id?: string;
  /** Timeout, queue and allow/deny settings, as for any MCP server. */
  server?: McpServerCommonConfig;
}

/**
 * A connected `McpToolProvider` for a filesystem server running in this process (through the
 * SDK's in-memory transport, no child process): for example `Read` and `Grep` pinned to a
 * session's directory of stored tool outputs.
 */
export async function createInProcessFsProvider(
  options: InProcessFsProviderOptions,
): Promise<McpToolProvider> {
  const { id = 'fs', server: serverConfig, root, tools, name, ...providerOptions } = options;
  const serverOptions: FsServerOptions = { root, ...(tools ? { tools } : {}), ...(name ? { name } : {}) };
  // Fail now (with the operator-facing reason) if the root is unusable.
  createFsServer(serverOptions);
  const provider = new McpToolProvider(
    id,
    {
      ...serverConfig,
      type: 'custom',
      createTransport: async () => {
        const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
        await createFsServer(serverOptions).connect(serverSide);
        return clientSide;
      },
    },
    providerOptions,
  );
  await provider.connect();
  return provider;
}
