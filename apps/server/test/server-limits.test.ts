import { writeFileSync } from 'node:fs';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawInitialize, rawListTools, sdkClient } from '../../../packages/headends/test/helpers/mcp-raw.js';
import { dripRequest, heldConnection, rawRequest } from '../../../packages/headends/test/helpers/raw-tcp.js';
import {
  type AgentDir,
  agentDir,
  finalReport,
  lastUserText,
  type RunningServer,
  startServer,
} from './helpers.js';

let agents: AgentDir;
const servers: RunningServer[] = [];

beforeAll(async () => {
  agents = await agentDir((request) => ({ text: finalReport(`Echo: ${lastUserText(request.messages)}`) }));
});

afterAll(async () => {
  for (const server of servers) {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  await agents?.close();
});

const portOf = (url: string) => Number(new URL(url).port);

describe('agent-server limits from flags and server.json', () => {
  let server: RunningServer;
  beforeAll(async () => {
    const config = join(agents.dir, 'limits.json');
    writeFileSync(
      config,
      JSON.stringify({
        agents: ['./echo.ai'],
        tokens: ['alpha', 'beta'],
        mcpMaxSessions: 3,
        requestTimeoutSeconds: 2,
      }),
    );
    server = await startServer(
      [
        '--config',
        config,
        '--api',
        '0',
        '--mcp',
        'http:0',
        '--mcp-max-sessions-per-token',
        '2',
        '--headers-timeout',
        '1',
        // The MCP SDK client holds two connections per session (its SSE stream and its POSTs).
        '--max-connections',
        '16',
        '--keep-alive-timeout',
        '20',
        '--retry-after',
        '7',
      ],
      agents.dir,
      2,
    );
    servers.push(server);
  });

  it('caps MCP sessions per token (--mcp-max-sessions-per-token) and in total (mcpMaxSessions), with --retry-after', async () => {
    const mcp = server.urls.mcp!;
    const alpha = [await sdkClient(mcp, 'alpha'), await sdkClient(mcp, 'alpha')];
    const perToken = await rawInitialize(mcp, 'alpha');
    expect(perToken.status).toBe(429);
    expect(perToken.retryAfter).toBe('7');
    expect(perToken.body).toMatch(/the limit per token is 2/);
    const beta = await sdkClient(mcp, 'beta');
    const total = await rawInitialize(mcp, 'beta');
    expect(total.status).toBe(429);
    expect(total.body).toMatch(/the limit is 3/);
    await alpha[0]!.transport.terminateSession();
    expect((await rawInitialize(mcp, 'beta')).status).toBe(200);
    for (const { client } of [...alpha, beta]) await client.close();
  });

  it('answers a client dripping its headers (--headers-timeout) or its body (requestTimeoutSeconds) with 408', async () => {
    const port = portOf(server.urls.rest!);
    const [headers, body] = await Promise.all([
      dripRequest(port, {
        head: `GET /v1/agents HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`,
        drip: `X-Slow: ${'a'.repeat(500)}`,
        gapMs: 100,
        maxMs: 12_000,
      }),
      dripRequest(port, {
        head: `POST /v1/agents/echo/run HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer alpha\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n`,
        drip: `{"prompt": "${'a'.repeat(490)}`,
        gapMs: 100,
        maxMs: 12_000,
      }),
    ]);
    expect(headers.received).toMatch(/^HTTP\/1\.1 408/);
    expect(headers.closedAfterMs).toBeLessThan(10_000);
    expect(body.received).toMatch(/^HTTP\/1\.1 408/);
    expect(body.closedAfterMs).toBeGreaterThanOrEqual(1500);
    expect(body.closedAfterMs).toBeLessThan(10_000);
  }, 30_000);

  it('closes connections past --max-connections', async () => {
    const port = portOf(server.urls.rest!);
    const health = `GET /health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`;
    const held: Socket[] = [];
    try {
      for (let n = 0; n < 16; n += 1) held.push(await heldConnection(port, health));
      expect(await rawRequest(port, `${health.slice(0, -2)}Connection: close\r\n\r\n`)).toBe('');
    } finally {
      for (const socket of held) socket.destroy();
    }
  });
});

describe('agent-server --mcp-idle-timeout', () => {
  it('closes an MCP session left idle', async () => {
    const server = await startServer(
      ['--agent', agents.files[0]!, '--mcp', 'http:0', '--token', 't', '--mcp-idle-timeout', '1'],
      agents.dir,
      1,
    );
    servers.push(server);
    const opened = await rawInitialize(server.urls.mcp!, 't');
    expect(opened.status).toBe(200);
    expect((await rawListTools(server.urls.mcp!, opened.sessionId!, 't')).status).toBe(200);
    await new Promise((r) => setTimeout(r, 3000));
    expect((await rawListTools(server.urls.mcp!, opened.sessionId!, 't')).status).toBe(404);
  }, 30_000);
});
