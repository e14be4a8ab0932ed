import { request as httpRequest } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpHeadend, type ServedHeadend, serve } from '../src/index.js';
import { echoAnswer, startAgents, type TestAgents } from './helpers/agents.js';

let agents: TestAgents;
let server: ServedHeadend;

beforeAll(async () => {
  agents = await startAgents(echoAnswer, ['echo', 'other']);
  server = await serve(createMcpHeadend({ catalog: agents.catalog, tokens: ['mcp-token'] }));
});

afterAll(async () => {
  await server.close();
  await agents.close();
});

async function connect(token = 'mcp-token'): Promise<Client> {
  const client = new Client({ name: 'headend-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  return client;
}

describe('MCP headend over Streamable HTTP with the SDK client', () => {
  it('lists one tool per agent with prompt and format inputs, and resume_session (the agents keep sessions)', async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['echo', 'other', 'resume_session']);
    expect(tools[0]?.inputSchema.required).toEqual(['prompt']);
    expect(Object.keys(tools[0]?.inputSchema.properties ?? {})).toEqual([
      'prompt',
      'format',
      'conversationId',
      'schema',
    ]);
    await client.close();
  });

  it('calls an agent and reports progress while it runs', async () => {
    const client = await connect();
    const progress: { progress: number; message?: string }[] = [];
    const result = await client.callTool({ name: 'echo', arguments: { prompt: 'via mcp' } }, undefined, {
      onprogress: (update) => progress.push(update),
    });
    expect(result.isError).toBe(false);
    expect(result.content).toEqual([{ type: 'text', text: 'Echo: via mcp' }]);
    expect(progress.length).toBeGreaterThan(0);
    expect(progress[0]?.message).toBe('turn 1');
    await client.close();
  });

  it('refuses a wrong token and a foreign Host header', async () => {
    await expect(connect('wrong')).rejects.toThrow();
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const request = httpRequest(`${server.url}/mcp`, {
        method: 'POST',
        headers: {
          host: 'evil.example.com',
          authorization: 'Bearer mcp-token',
          'content-type': 'application/json',
        },
      });
      request.on('response', (response) => {
        response.resume();
        resolve(response.statusCode);
      });
      request.on('error', reject);
      request.end('{}');
    });
    expect(status).toBe(403);
  });
});
