// Every face's runs reach the viewer (`--viewer`), read over its JSON and SSE endpoints.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AgentDir,
  agentDir,
  finalReport,
  lastUserText,
  type RunningServer,
  startServer,
} from './helpers.js';

let agents: AgentDir;
let server: RunningServer;
const auth = { authorization: 'Bearer tok', 'content-type': 'application/json' };

beforeAll(async () => {
  agents = await agentDir((request) =>
    lastUserText(request.messages) === 'fail'
      ? { error: { kind: 'auth', message: 'the key was refused' } }
      : {
          text: finalReport(`Echo: ${lastUserText(request.messages)}`),
          usage: { inputTokens: 4, outputTokens: 2 },
        },
  );
  server = await startServer(
    [
      '--agent',
      agents.files[0]!,
      '--api',
      '0',
      '--openai',
      '0',
      '--anthropic',
      '0',
      '--mcp',
      'http:0',
      '--viewer',
      '0',
      '--token',
      'tok',
    ],
    agents.dir,
    5,
  );
});

afterAll(async () => {
  server?.child.kill('SIGTERM');
  await server?.exited;
  await agents?.close();
});

const viewer = () => server.urls.viewer!.replace(/\/$/, '');

interface Listed {
  id: string;
  headend?: string;
  status: string;
  totals: { llmCalls: number; inputTokens: number };
}

async function sessions(query = ''): Promise<Listed[]> {
  const response = await fetch(`${viewer()}/api/sessions${query}`, { headers: auth });
  return ((await response.json()) as { sessions: Listed[] }).sessions;
}

describe('the viewer sees every face', () => {
  it('lists the runs of REST, the UI chat, OpenAI, Anthropic and MCP with their totals', async () => {
    const base = server.urls.rest!.replace(/\/v1\/agents$/, '');
    await fetch(`${base}/v1/agents/echo/run`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ prompt: 'rest' }),
    });
    const chat = await fetch(`${base}/api/chat`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({
        messages: [{ id: 'm1', role: 'user', parts: [{ type: 'text', text: 'chat' }] }],
      }),
    });
    expect(await chat.text()).toContain('Echo: chat');
    await fetch(`${server.urls.openai}/chat/completions`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ model: 'echo', messages: [{ role: 'user', content: 'openai' }] }),
    });
    await fetch(`${server.urls.anthropic}/v1/messages`, {
      method: 'POST',
      headers: { ...auth, 'x-api-key': 'tok', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({
        model: 'echo',
        max_tokens: 50,
        messages: [{ role: 'user', content: 'anthropic' }],
      }),
    });
    const client = new Client({ name: 'viewer-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(server.urls.mcp!), {
        requestInit: { headers: { authorization: 'Bearer tok' } },
      }),
    );
    await client.callTool({ name: 'echo', arguments: { prompt: 'mcp' } });
    await client.close();

    const listed = await sessions();
    expect(listed.map((s) => s.headend).sort()).toEqual(['anthropic', 'mcp', 'openai', 'rest', 'rest']);
    for (const session of listed) {
      expect(session).toMatchObject({ status: 'ok', totals: { llmCalls: 1, inputTokens: 4 } });
    }
    expect(await sessions('?status=running')).toEqual([]);
    expect((await sessions('?agent=echo&status=ok')).length).toBe(5);
    const one = await fetch(`${viewer()}/api/sessions/${listed[0]!.id}`, { headers: auth });
    expect(await one.json()).toMatchObject({
      agent: 'echo',
      report: { format: 'markdown', content: 'Echo: mcp' },
    });
  });

  it('streams the list over SSE', async () => {
    const response = await fetch(`${viewer()}/api/stream`, { headers: auth });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const reader = response.body!.getReader();
    const { value } = await reader.read();
    const text = new TextDecoder().decode(value);
    expect(text).toMatch(/^event: list\ndata: \[/);
    await reader.cancel();
  });

  it('refuses requests without the token, bad filters, unknown sessions and writes, saying why', async () => {
    const anonymous = await fetch(`${viewer()}/api/sessions`);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual({
      error: 'missing or invalid token: send Authorization: Bearer <token>, or open /?token=<token> once',
    });
    const wrongCookie = await fetch(`${viewer()}/api/sessions`, {
      headers: { cookie: 'agent_viewer_token=nope' },
    });
    expect(wrongCookie.status).toBe(401);
    const badToken = await fetch(`${viewer()}/?token=nope`, { redirect: 'manual' });
    expect(badToken.status).toBe(401);
    expect(badToken.headers.get('set-cookie')).toBeNull();
    const bad = await fetch(`${viewer()}/api/sessions?status=done`, { headers: auth });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: 'status: expected one of running, ok, failed, not "done"' });
    const missing = await fetch(`${viewer()}/api/sessions/nope`, { headers: auth });
    expect(missing.status).toBe(404);
    const post = await fetch(`${viewer()}/api/sessions`, { method: 'POST', headers: auth });
    expect(post.status).toBe(405);
    const page = await fetch(`${viewer()}/`, { headers: auth });
    expect(page.headers.get('content-security-policy')).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
    expect(await page.text()).toContain('<script src="/assets/app.js" defer></script>');
  });

  it('shows a failed run as failed, with why', async () => {
    const base = server.urls.rest!;
    const answer = await fetch(`${base}/echo/run`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ prompt: 'fail' }),
    });
    // A failed run is an error (500) that keeps the run body.
    expect(answer.status).toBe(500);
    expect(((await answer.json()) as { success: boolean }).success).toBe(false);
    const [failed, ...others] = await sessions('?status=failed');
    expect(others).toEqual([]);
    const view = (await (
      await fetch(`${viewer()}/api/sessions/${failed!.id}`, { headers: auth })
    ).json()) as {
      status: string;
      error?: string;
      tree: { children: { children: { kind: string; status: string }[] }[] };
    };
    expect(view.status).toBe('failed');
    expect(view.error).toBeDefined();
    expect(view.tree.children[0]?.children[0]).toMatchObject({ kind: 'llm', status: 'failed' });
  });

  it('stops on SIGTERM with a live stream open, and exits 0', async () => {
    const response = await fetch(`${viewer()}/api/stream`, { headers: auth });
    const reader = response.body!.getReader();
    await reader.read();
    server.child.kill('SIGTERM');
    await expect(server.exited).resolves.toBe(0);
    expect(server.stderr()).toContain('agent-server: stopped');
    // The stream ends with the server instead of holding it open.
    let done = false;
    while (!done) done = (await reader.read()).done;
  });
});
