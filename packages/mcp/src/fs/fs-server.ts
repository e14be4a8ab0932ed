import { ConfigError } from '@agent/protocol';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { FsToolError } from './fs-errors.js';
import { openRoot } from './root.js';
import { FS_TOOL_NAMES, FS_TOOLS, type FsToolName } from './tool-definitions.js';

export interface FsServerOptions {
  /** Directory the server is confined to. Must exist. */
  root: string;
  /** Tools to offer (default: all of Read, Grep, ListDir, Find). */
  tools?: readonly FsToolName[];
  /** Server name sent in `initialize` (default `agent-fs`). */
  name?: string;
}

const INSTRUCTIONS =
  'Read-only access to one directory tree. Every path is relative to that directory; absolute paths, ".." ' +
  'and links leading outside it are refused.';

function errorResult(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/**
 * A low-level MCP `Server` offering read-only, root-confined file tools. Connect it to any
 * server transport (stdio for the `agent-fs-mcp` bin, the SDK's in-memory transport in-process).
 */
export function createFsServer(options: FsServerOptions): Server {
  const root = openRoot(options.root);
  const unknown = (options.tools ?? []).filter(
    (tool) => !(FS_TOOL_NAMES as readonly string[]).includes(tool),
  );
  if (unknown.length > 0) {
    throw new ConfigError({
      field: 'tools',
      value: unknown,
      allowed: `tools from ${FS_TOOL_NAMES.join(', ')}`,
      message: `Unknown filesystem tool(s): ${unknown.join(', ')}; known: ${FS_TOOL_NAMES.join(', ')}`,
    });
  }
  const enabled = new Set<string>(options.tools ?? FS_TOOL_NAMES);
  const tools = FS_TOOLS.filter((tool) => enabled.has(tool.name));
  const server = new Server(
    { name: options.name ?? 'agent-fs', version: '0.1.0' },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const tool = tools.find((candidate) => candidate.name === request.params.name);
    if (!tool) {
      return errorResult(
        `Unknown tool "${request.params.name}"; this server offers ${tools.map((t) => t.name).join(', ')}.`,
      );
    }
    try {
      const text = await tool.run(root, request.params.arguments ?? {}, extra.signal);
      return { content: [{ type: 'text', text }] };
    } catch (error) {
      if (error instanceof FsToolError) return errorResult(root.redact(error.message));
      if (extra.signal.aborted) return errorResult('The operation was cancelled.');
      return errorResult(
        `${tool.name} failed unexpectedly (${(error as NodeJS.ErrnoException).code ?? 'internal error'}).`,
      );
    }
  });
  return server;
}
