#!/usr/bin/env node
// agent-fs-mcp <root> [--tools Read,Grep]: the root-confined filesystem MCP server over stdio.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createFsServer } from '../fs/fs-server.js';
import { FS_TOOL_NAMES, type FsToolName } from '../fs/tool-definitions.js';

const USAGE = `usage: agent-fs-mcp <root> [--tools ${FS_TOOL_NAMES.join(',')}]`;

function fail(message: string): never {
  process.stderr.write(`agent-fs-mcp: ${message}\n${USAGE}\n`);
  process.exit(2);
}

const args = process.argv.slice(2);
let root: string | undefined;
let tools: FsToolName[] | undefined;
for (let i = 0; i < args.length; i++) {
  const arg = args[i]!;
  if (arg === '--help' || arg === '-h') {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  } else if (arg === '--tools') {
    const list = args[++i];
    if (!list) fail('--tools needs a comma-separated list');
    tools = list.split(',').map((tool) => tool.trim()) as FsToolName[];
  } else if (root === undefined) {
    root = arg;
  } else {
    fail(`unexpected argument: ${arg}`);
  }
}
if (root === undefined) fail('missing <root>');

let server: ReturnType<typeof createFsServer>;
try {
  server = createFsServer({ root, ...(tools ? { tools } : {}) });
} catch (error) {
  fail((error as Error).message);
}
const transport = new StdioServerTransport();
transport.onclose = () => process.exit(0);
await server.connect(transport);
process.stdin.on('end', () => {
  void server.close().finally(() => process.exit(0));
});
