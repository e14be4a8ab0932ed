// DNS rebinding: a page on evil.example whose name now resolves to 127.0.0.1 talks to a face
// served without auth. Its requests carry `Host: evil.example:<port>` (and an `Origin` of the
// page): every face refuses them with 403, while loopback names and allowed hosts still work.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAnthropicHeadend,
  createMcpHeadend,
  createOpenAiHeadend,
  createRestHeadend,
  type Headend,
  type HeadendOptions,
  LOOPBACK_HOSTNAMES,
  type ServedHeadend,
  serve,
} from '../src/index.js';
import { finalReport, startAgents, type TestAgents } from './helpers/agents.js';

let agents: TestAgents;

beforeAll(async () => {
  agents = await startAgents(() => ({ text: finalReport('ran') }));
});

afterAll(async () => {
  await agents.close();
});

/** A POST to `path` with the given Host and Origin; its status and body. */
function post(
  port: number,
  path: string,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'content-length': Buffer.byteLength(body),
          ...headers,
        },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          text += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const MCP_INIT = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
});

const FACES: { kind: string; path: string; body: string; make: (options: HeadendOptions) => Headend }[] = [
  { kind: 'REST', path: '/v1/agents/echo/run', body: '{"prompt":"hi"}', make: createRestHeadend },
  {
    kind: 'OpenAI-compatible',
    path: '/v1/chat/completions',
    body: '{"model":"echo","messages":[{"role":"user","content":"hi"}]}',
    make: createOpenAiHeadend,
  },
  {
    kind: 'Anthropic-compatible',
    path: '/v1/messages',
    body: '{"model":"echo","max_tokens":100,"messages":[{"role":"user","content":"hi"}]}',
    make: createAnthropicHeadend,
  },
  { kind: 'MCP', path: '/mcp', body: MCP_INIT, make: createMcpHeadend },
];

describe.each(FACES)('the $kind headend without auth', ({ path, body, make }) => {
  let server: ServedHeadend;
  beforeAll(async () => {
    server = await serve(
      make({
        catalog: agents.catalog,
        allowNoAuth: true,
        allowedHostnames: [...LOOPBACK_HOSTNAMES, 'agents.internal'],
      }),
    );
  });
  afterAll(async () => {
    await server.close();
  });

  it('refuses a foreign Host with 403 and runs nothing', async () => {
    const before = agents.model.requests.length;
    const answer = await post(server.port, path, { host: `evil.example:${server.port}` }, body);
    expect(answer.status).toBe(403);
    expect(answer.body).toContain(`invalid Host header: evil.example:${server.port}`);
    expect(agents.model.requests.length).toBe(before);
  });

  it('refuses a foreign Origin with 403, even with a loopback Host', async () => {
    const answer = await post(
      server.port,
      path,
      { host: `127.0.0.1:${server.port}`, origin: 'http://evil.example:8080' },
      body,
    );
    expect(answer.status).toBe(403);
    expect(answer.body).toContain('invalid Origin header: http://evil.example:8080');
  });

  it('answers loopback names and the hosts it was told to allow', async () => {
    for (const host of [`127.0.0.1:${server.port}`, `localhost:${server.port}`, 'agents.internal']) {
      const answer = await post(server.port, path, { host, origin: `http://${host}` }, body);
      expect(answer.status, `Host ${host}`).toBe(200);
    }
  });
});
