import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createMcpHeadend,
  DEFAULT_MCP_MAX_SESSIONS,
  type McpHeadend,
  type McpHeadendOptions,
  type ServedHeadend,
  serve,
} from '../src/index.js';
import { finalReport, lastUserText, startAgents, type TestAgents } from './helpers/agents.js';
import { rawDelete, rawInitialize, rawListTools, sdkClient } from './helpers/mcp-raw.js';

let agents: TestAgents;
const servers: ServedHeadend[] = [];

beforeAll(async () => {
  agents = await startAgents((request) => {
    const prompt = lastUserText(request.messages);
    // A slow scripted model: the tool call runs for about 4 s.
    if (prompt === 'slow') return { text: finalReport('Slow done'), delayMs: 4000 };
    return { text: finalReport(`Echo: ${prompt}`) };
  });
});

afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
  await agents.close();
});

async function start(
  options: Omit<McpHeadendOptions, 'catalog'>,
): Promise<{ headend: McpHeadend; url: string }> {
  const headend = createMcpHeadend({ catalog: agents.catalog, ...options });
  const server = await serve(headend);
  servers.push(server);
  return { headend, url: `${server.url}/mcp` };
}

const errorOf = (body: string) =>
  JSON.parse(body) as { jsonrpc: string; id: unknown; error: { code: number; message: string } };

describe('MCP session cap', () => {
  it('answers 429 with Retry-After and the limit past the cap; DELETE frees a slot', async () => {
    const { headend, url } = await start({ tokens: ['t'], maxSessions: 3 });
    const open = [await sdkClient(url, 't'), await sdkClient(url, 't'), await sdkClient(url, 't')];
    expect(headend.openSessions).toBe(3);

    const refused = await rawInitialize(url, 't', 7);
    expect(refused.status).toBe(429);
    expect(refused.retryAfter).toBe('1');
    expect(refused.sessionId).toBeNull();
    const body = errorOf(refused.body);
    expect(body).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code: -32000 } });
    expect(body.error.message).toMatch(/too many open MCP sessions: 3 \(the limit is 3\)/);
    // The official client sees the same refusal.
    await expect(sdkClient(url, 't')).rejects.toThrow(/limit is 3/);
    expect(headend.openSessions).toBe(3);

    await open[0]!.transport.terminateSession();
    expect(headend.openSessions).toBe(2);
    const next = await sdkClient(url, 't');
    expect((await next.client.listTools()).tools.map((tool) => tool.name)).toEqual([
      'echo',
      'resume_session',
    ]);
    for (const { client } of [...open, next]) await client.close();
  });

  it('caps sessions per token, leaving other tokens their share', async () => {
    const { headend, url } = await start({
      tokens: ['alpha', 'beta'],
      maxSessions: 3,
      maxSessionsPerToken: 2,
    });
    const first = await rawInitialize(url, 'alpha');
    const second = await rawInitialize(url, 'alpha');
    expect([first.status, second.status]).toEqual([200, 200]);

    const third = await rawInitialize(url, 'alpha');
    expect(third.status).toBe(429);
    expect(third.retryAfter).toBe('1');
    expect(errorOf(third.body).error.message).toMatch(/for this token: 2 \(the limit per token is 2\)/);

    // Another token still gets a session, up to the total cap.
    const beta = await sdkClient(url, 'beta');
    expect(headend.openSessions).toBe(3);
    const overTotal = await rawInitialize(url, 'beta');
    expect(overTotal.status).toBe(429);
    expect(errorOf(overTotal.body).error.message).toMatch(/3 \(the limit is 3\)/);

    // A session belongs to the token that opened it: another token can neither use nor end it.
    expect((await rawListTools(url, first.sessionId!, 'beta')).status).toBe(404);
    expect((await rawDelete(url, first.sessionId!, 'beta')).status).toBe(404);
    expect(headend.openSessions).toBe(3);

    expect((await rawDelete(url, first.sessionId!, 'alpha')).status).toBe(200);
    expect((await rawInitialize(url, 'alpha')).status).toBe(200);
    await beta.client.close();
  });

  it('stays at the cap when thousands of initialize requests arrive without DELETE', async () => {
    const { headend, url } = await start({ allowNoAuth: true });
    const statuses = new Map<number, number>();
    const total = 2000;
    const parallel = 25;
    for (let sent = 0; sent < total; sent += parallel) {
      const batch = await Promise.all(Array.from({ length: parallel }, () => rawInitialize(url)));
      for (const { status } of batch) statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
    expect(statuses.get(200)).toBe(DEFAULT_MCP_MAX_SESSIONS);
    expect(statuses.get(429)).toBe(total - DEFAULT_MCP_MAX_SESSIONS);
    expect(headend.openSessions).toBe(DEFAULT_MCP_MAX_SESSIONS);
  }, 120_000);
});

describe('MCP idle expiry', () => {
  it('closes an idle session, but not one whose tool call is running; the idle clock starts when the call ends', async () => {
    const { headend, url } = await start({ tokens: ['t'], sessionIdleMs: 1500 });
    const idle = await sdkClient(url, 't');
    const busy = await sdkClient(url, 't');
    const idleId = idle.transport.sessionId!;
    const busyId = busy.transport.sessionId!;

    // The call runs for about 4 s, well past the 1.5 s idle timeout.
    const result = await busy.client.callTool({ name: 'echo', arguments: { prompt: 'slow' } }, undefined, {
      timeout: 20_000,
    });
    expect(result.isError).toBe(false);
    expect(result.content).toEqual([{ type: 'text', text: 'Slow done' }]);

    // The idle session expired meanwhile; the busy one is still open right after its call.
    expect((await rawListTools(url, idleId, 't')).status).toBe(404);
    expect((await rawListTools(url, busyId, 't')).status).toBe(200);
    expect(headend.openSessions).toBe(1);

    // Once idle, it expires too.
    const deadline = Date.now() + 15_000;
    while (headend.openSessions > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(headend.openSessions).toBe(0);
    expect((await rawListTools(url, busyId, 't')).status).toBe(404);
    await idle.client.close();
    await busy.client.close();
  }, 60_000);
});
