import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteSessionStore } from '@agent/cache';
import type { SessionStore } from '@agent/protocol';
import { finalReport } from '@agent/testkit';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createRestHeadend, type ServedHeadend, serve } from '../src/index.js';
import { type ApprovalAgents, deployCall, startApprovalAgents } from './helpers/approvals.js';

// Issue 16, the approval timeout over REST. Nobody is on the line when a REST run pauses (the
// run's answer says so and ends), so there is no question to time out: the paused session waits
// in the session store, readable and decidable, until the store drops it (unfinished sessions
// are kept at least 30 days, or the store's ttl when longer). Then it is gone: 404 for both.
// The store's clock is moved instead of waiting; everything else is real (SQLite, HTTP, MCP).
const DAY = 86_400_000;
let clock = Date.UTC(2026, 0, 1);
let dir: string;
let store: SessionStore;
let agents: ApprovalAgents;
let server: ServedHeadend;
const auth = { authorization: 'Bearer t1', 'content-type': 'application/json' };

beforeAll(async () => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'headends-expiry-')));
  store = await openSqliteSessionStore({
    path: join(dir, 'sessions.sqlite'),
    ttlMs: 3 * DAY,
    now: () => clock,
  });
  agents = await startApprovalAgents({ sessionStore: store });
  server = await serve(createRestHeadend({ catalog: agents.catalog, tokens: ['t1'] }));
});

afterAll(async () => {
  await server.close();
  await agents.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const post = (path: string, body: unknown) =>
  fetch(`${server.url}${path}`, { method: 'POST', headers: auth, body: JSON.stringify(body) });
const getSession = (id: string) => fetch(`${server.url}/v1/sessions/${id}`, { headers: auth });
const errorOf = async (response: Response) =>
  ((await response.json()) as { error: { message: string } }).error.message;

async function pausedRun(callId: string): Promise<string> {
  agents.model.push(deployCall(callId));
  const response = await post('/v1/agents/deployer/run', { prompt: 'Deploy to prod.' });
  const body = (await response.json()) as { exitCode: string; sessionId: string };
  expect(body.exitCode).toBe('EXIT-AWAITING-APPROVAL');
  return body.sessionId;
}

it('a paused session waits, readable and decidable, for 30 days; after that it is gone (404) and nothing ran', async () => {
  const decidedLate = await pausedRun('call_late');
  const neverDecided = await pausedRun('call_never');

  // 29 days on (the store's ttl of 3 days is for finished sessions only): both still wait.
  clock += 29 * DAY;
  const shown = await getSession(neverDecided);
  expect(shown.status).toBe(200);
  expect(await shown.json()).toMatchObject({
    status: 'awaiting_approval',
    pendingApprovals: [{ callId: 'call_never', tool: 'ops__deploy' }],
  });
  agents.model.push(finalReport('Deployed, late but approved.'));
  const late = await post(`/v1/sessions/${decidedLate}/approvals`, {
    decisions: { call_late: { approved: true } },
  });
  expect(late.status).toBe(200);
  expect(await late.json()).toMatchObject({
    success: true,
    finalReport: { content: 'Deployed, late but approved.' },
  });

  // Past 30 days the undecided one is gone; a decision for it changes nothing and runs nothing.
  clock += 2 * DAY;
  const gone = await getSession(neverDecided);
  expect(gone.status).toBe(404);
  expect(await errorOf(gone)).toBe(
    `no session "${neverDecided}" (never stored, or expired: a finished session is kept for sessions.ttl, an unfinished one at least 30 days)`,
  );
  const tooLate = await post(`/v1/sessions/${neverDecided}/approvals`, {
    decisions: { call_never: { approved: true } },
  });
  expect(tooLate.status).toBe(404);
  expect(agents.deployments().map((d) => d.meta['agent/callId'])).toEqual(['call_late']);
  // The finished one is kept for the ttl from its end (3 days): still readable, then gone.
  expect(await (await getSession(decidedLate)).json()).toMatchObject({ status: 'finished' });
  clock += 2 * DAY;
  expect((await getSession(decidedLate)).status).toBe(404);
});
