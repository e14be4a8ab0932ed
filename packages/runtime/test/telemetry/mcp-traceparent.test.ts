import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { finalReport, toolCall } from '@agent/testkit';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { createAgentRunner } from '../../src/index.js';
import { startRoleServer } from '../helpers/role-server.js';
import { agentFile, isolated, tempTree } from '../helpers/temp-tree.js';
import { registerInMemoryTracing } from './otel-setup.js';

/**
 * A minimal Streamable HTTP MCP server (JSON responses, one `lookup` tool) that notes the
 * `traceparent` of each JSON-RPC request it gets.
 */
async function recordingMcpServer(): Promise<{
  url: string;
  seen: { method: string; traceparent?: string }[];
  close: () => Promise<void>;
}> {
  const seen: { method: string; traceparent?: string }[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method !== 'POST') {
        res.writeHead(405).end();
        return;
      }
      const message = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        id?: number;
        method: string;
        params?: { protocolVersion?: string };
      };
      const traceparent = req.headers.traceparent;
      seen.push({ method: message.method, ...(typeof traceparent === 'string' ? { traceparent } : {}) });
      if (message.id === undefined) {
        res.writeHead(202).end();
        return;
      }
      const result =
        message.method === 'initialize'
          ? {
              protocolVersion: message.params?.protocolVersion,
              capabilities: { tools: {} },
              serverInfo: { name: 'recorder', version: '1.0.0' },
            }
          : message.method === 'tools/list'
            ? { tools: [{ name: 'lookup', description: 'Looks up.', inputSchema: { type: 'object' } }] }
            : { content: [{ type: 'text', text: 'found it' }] };
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    seen,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let tracing: ReturnType<typeof registerInMemoryTracing>;
beforeEach(() => {
  tracing = registerInMemoryTracing();
});
afterEach(async () => {
  await tracing.unregister();
});

test('a Streamable HTTP MCP server gets the traceparent of the tool call span that made the request', async () => {
  const mcp = await recordingMcpServer();
  const roles = await startRoleServer({ m: [toolCall('web__lookup', { q: 'x' }), finalReport('Found.')] });
  const root = tempTree({
    '.ai-agent.json': {
      providers: { p: { type: 'openai-compatible', baseUrl: `${roles.server.url}/v1`, apiKey: 'k' } },
      mcpServers: { web: { type: 'http', url: mcp.url } },
    },
    'main.ai': agentFile('models: [p/m]\ntools: [web]'),
  });
  const runner = await createAgentRunner('main.ai', isolated(root));
  try {
    const result = await runner.run('Look it up.');
    expect(result.success, result.error).toBe(true);
  } finally {
    await runner.close();
    await roles.server.close();
    await mcp.close();
  }
  const span = tracing.exporter.getFinishedSpans().find((s) => s.name === 'execute_tool web__lookup');
  expect(span).toBeDefined();
  const call = mcp.seen.find((r) => r.method === 'tools/call');
  expect(call?.traceparent).toBe(`00-${span?.spanContext().traceId}-${span?.spanContext().spanId}-01`);
  // The connection was opened outside any tool call: its requests carry no trace context.
  expect(mcp.seen.find((r) => r.method === 'initialize')?.traceparent).toBeUndefined();
});
