// A real stdio MCP server with one tool that needs approval in the tests, `deploy`. Each call is
// appended to the file named by argv[2] as a JSON line with its arguments and its `_meta`, so a
// test sees which calls ran (a denied one never does) and the tool call id the runtime sent.
import { appendFileSync } from 'node:fs';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const record = process.argv[2];
const server = new Server({ name: 'deploy', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [
    {
      name: 'deploy',
      description: 'Deploys the release to an environment.',
      inputSchema: { type: 'object', properties: { env: { type: 'string' } }, required: ['env'] },
    },
  ],
}));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const args = request.params.arguments ?? {};
  appendFileSync(record, `${JSON.stringify({ arguments: args, meta: request.params._meta ?? {} })}\n`);
  return { content: [{ type: 'text', text: `deployed to ${args.env}` }] };
});
await server.connect(new StdioServerTransport());
