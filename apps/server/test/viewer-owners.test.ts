// Issue 35: the viewer shows a token only the sessions it started (an operator token: all), and
// its cookie is a viewer session, never the API token: it opens nothing on the API faces.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AgentDir,
  agentDir,
  helperApprovalModel,
  type RunningServer,
  startServer,
  writeHelperApprovalAgents,
} from './helpers.js';

let agents: AgentDir;
let server: RunningServer;

beforeAll(async () => {
  agents = await agentDir(helperApprovalModel);
  writeHelperApprovalAgents(agents);
  server = await startServer(
    [
      ...['--agent', agents.files[0]!, '--api', '0', '--openai', '0', '--viewer', '0'],
      ...['--token', 'alice-token', '--token', 'bob-token', '--operator-token', 'ops-token'],
    ],
    agents.dir,
    3,
  );
});

afterAll(async () => {
  server?.child.kill('SIGTERM');
  await server?.exited;
  await agents?.close();
});

const viewer = () => server.urls.viewer!.replace(/\/$/, '');
const restBase = () => server.urls.rest!.replace(/\/v1\/agents$/, '');
const bearer = (token: string) => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' });

interface Listed {
  id: string;
  sessionId?: string;
}

async function listed(headers: Record<string, string>): Promise<Listed[]> {
  const response = await fetch(`${viewer()}/api/sessions`, { headers });
  expect(response.status).toBe(200);
  return ((await response.json()) as { sessions: Listed[] }).sessions;
}

/** Alice's run, paused on the helper call that needs approval: its session id. */
async function alicePaused(): Promise<string> {
  const response = await fetch(`${restBase()}/v1/agents/echo/run`, {
    method: 'POST',
    headers: bearer('alice-token'),
    body: JSON.stringify({ prompt: 'Greet me.' }),
  });
  const body = (await response.json()) as { exitCode: string; sessionId: string };
  expect(body.exitCode).toBe('EXIT-AWAITING-APPROVAL');
  return body.sessionId;
}

describe('the viewer shows each token its own sessions', () => {
  it("Bob's viewer neither lists nor reads Alice's paused session; hers and the operator's do", async () => {
    const sessionId = await alicePaused();
    const mine = (sessions: Listed[]) => sessions.filter((session) => session.sessionId === sessionId);

    expect(mine(await listed(bearer('bob-token')))).toEqual([]);
    const seenByOps = mine(await listed(bearer('ops-token')));
    expect(seenByOps).toHaveLength(1);
    expect(mine(await listed(bearer('alice-token')))).toHaveLength(1);

    const viewId = seenByOps[0]!.id;
    const read = (token: string) => fetch(`${viewer()}/api/sessions/${viewId}`, { headers: bearer(token) });
    expect((await read('bob-token')).status).toBe(404);
    expect((await read('alice-token')).status).toBe(200);
    // Nor over the API: Bob's 404 there too.
    const api = await fetch(`${restBase()}/v1/sessions/${sessionId}`, { headers: bearer('bob-token') });
    expect(api.status).toBe(404);
  });
});

describe("the viewer's cookie", () => {
  it('is a random, HttpOnly, SameSite=Strict, expiring viewer session that opens nothing on the API faces', async () => {
    const signIn = await fetch(`${viewer()}/?token=alice-token`, { redirect: 'manual' });
    expect(signIn.status).toBe(303);
    const cookie = signIn.headers.get('set-cookie') ?? '';
    expect(cookie).not.toContain('alice-token');
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Strict/);
    expect(cookie).toMatch(/; Path=\//);
    expect(cookie).toMatch(/; Max-Age=\d+/);
    const pair = cookie.split(';')[0]!;
    const value = pair.slice(pair.indexOf('=') + 1);
    expect(value.length).toBeGreaterThanOrEqual(32);

    // It is Alice's viewer session: her sessions, not Bob's view.
    const sessionId = await alicePaused();
    const sessions = await listed({ cookie: pair });
    expect(sessions.some((session) => session.sessionId === sessionId)).toBe(true);

    // A page that stole it gets nothing from the API faces: not as a bearer, not as a cookie.
    for (const url of [`${restBase()}/v1/agents`, `${server.urls.openai}/models`]) {
      expect((await fetch(url, { headers: { authorization: `Bearer ${value}` } })).status).toBe(401);
      expect((await fetch(url, { headers: { cookie: pair } })).status).toBe(401);
    }
    const run = await fetch(`${restBase()}/v1/sessions/${sessionId}`, { headers: { cookie: pair } });
    expect(run.status).toBe(401);
  });

  it('a second sign-in gets another session; a made-up session id is refused', async () => {
    const one = (await fetch(`${viewer()}/?token=bob-token`, { redirect: 'manual' })).headers.get(
      'set-cookie',
    );
    const two = (await fetch(`${viewer()}/?token=bob-token`, { redirect: 'manual' })).headers.get(
      'set-cookie',
    );
    expect(one?.split(';')[0]).not.toBe(two?.split(';')[0]);
    const forged = await fetch(`${viewer()}/api/sessions`, {
      headers: { cookie: 'agent_viewer_session=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' },
    });
    expect(forged.status).toBe(401);
  });
});
