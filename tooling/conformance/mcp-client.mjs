// Conformance client for @agent/mcp: `node mcp-client.mjs <server-url>` (the suite appends the
// URL and sets MCP_CONFORMANCE_SCENARIO). It initializes through McpToolProvider, lists the
// tools, calls each once with arguments that fit its schema, and exits 1 if any call failed.
// Needs a build of packages/mcp (`pnpm --filter @agent/mcp build`). The vitest test
// packages/mcp/test/conformance.test.ts runs the same scenarios from the TypeScript sources.
import { McpToolProvider, ToolQueues } from '../../packages/mcp/dist/index.js';

const url = process.argv[process.argv.length - 1];
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? 'unknown';

function sample(schema) {
  const type = schema?.type;
  if (type === 'number' || type === 'integer') return 2;
  if (type === 'boolean') return true;
  if (type === 'array') return [];
  if (type === 'object') return {};
  return 'conformance';
}

const provider = new McpToolProvider(
  'conformance',
  { type: 'http', url, toolTimeoutMs: 20_000 },
  { queues: new ToolQueues(), clientInfo: { name: 'agent-mcp-conformance', version: '0.1.0' } },
);
let failed = 0;
try {
  for (const tool of await provider.listTools()) {
    const required = Array.isArray(tool.inputSchema.required) ? tool.inputSchema.required : [];
    const properties = tool.inputSchema.properties ?? {};
    const args = Object.fromEntries(required.map((key) => [key, sample(properties[key])]));
    const result = await provider.execute(
      { name: tool.name, arguments: args, callId: `${scenario}-${tool.name}` },
      { signal: new AbortController().signal },
    );
    if (!result.ok) {
      failed++;
      console.error(`${tool.name}: ${result.error.kind}: ${result.error.message}`);
    }
  }
} catch (error) {
  failed++;
  console.error(`${scenario}: ${error.message}`);
} finally {
  await provider.close();
}
process.exit(failed === 0 ? 0 : 1);
