// The catalog as an MCP server of one tool per operation (a low-level SDK `Server`), run by the
// suite's agent as a stdio server in a child process. Each call is appended to a file, so the
// suite reads what the server actually ran, not what the model meant to call.
import { appendFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { type CatalogOperation, catalogOperations } from './catalog.js';

const CHILD_FLAG = '--tool-search-mcp-server';

/** One tool per operation: its snake_case name, summary and every parameter as a property. */
export function catalogTools(operations: readonly CatalogOperation[]): Tool[] {
  return operations.map((operation) => ({
    name: operation.toolName,
    description: operation.summary,
    inputSchema: {
      type: 'object',
      properties: Object.fromEntries(
        operation.parameters.map((p) => [
          p.name,
          { type: p.type, description: p.description, ...(p.enum === undefined ? {} : { enum: p.enum }) },
        ]),
      ),
      required: operation.parameters.filter((p) => p.required).map((p) => p.name),
    },
  }));
}

/** The server of `operations`; a call answers `<tool> done: <arguments>` and is logged to `callsFile`. */
export function createCatalogServer(operations: readonly CatalogOperation[], callsFile: string): Server {
  const tools = catalogTools(operations);
  const names = new Set(tools.map((tool) => tool.name));
  const server = new Server({ name: 'company-catalog', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const { name, arguments: args = {} } = request.params;
    if (!names.has(name))
      return { content: [{ type: 'text', text: `Unknown tool "${name}".` }], isError: true };
    appendFileSync(callsFile, `${JSON.stringify({ name, arguments: args })}\n`);
    return { content: [{ type: 'text', text: `${name} done: ${JSON.stringify(args)}` }] };
  });
  return server;
}

/** The command line that runs the server of the first `count` operations over stdio. */
export function catalogServerCommand(count: number, callsFile: string): { command: string; args: string[] } {
  return {
    command: process.execPath,
    args: [
      '--import',
      import.meta.resolve('tsx'),
      fileURLToPath(import.meta.url),
      CHILD_FLAG,
      String(count),
      callsFile,
    ],
  };
}

const at = process.argv.indexOf(CHILD_FLAG);
if (at !== -1) {
  const server = createCatalogServer(catalogOperations(Number(process.argv[at + 1])), process.argv[at + 2]!);
  await server.connect(new StdioServerTransport());
}
