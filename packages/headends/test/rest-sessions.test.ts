import { argumentsHash } from '@agent/core';
import { finalReport, toolCall } from '@agent/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRestHeadend, principalId, type ServedHeadend, serve } from '../src/index.js';
import {
  type ApprovalAgents,
  deployCall,
  lastToolMessages,
  startApprovalAgents,
} from './helpers/approvals.js';

// Issue 16 over REST: a run that pauses for approval answers its pending calls and session id;
// GET /v1/sessions/:id shows the stored session; POST /v1/sessions/:id/approvals decides the
// calls and resumes it from the store. Real runners, a real stdio MCP tool, real HTTP.
let agents: ApprovalAgents;
let server: ServedHeadend;
const auth = { authorization: 'Bearer t1', 'content-type': 'application/json' };

beforeAll(async () => {
  agents = await startApprovalAgents();
  server = await serve(createRestHeadend({ catalog: agents.catalog, tokens: ['t1'] }));
});

afterAll(async () => {
  await server.close();
  await agents.close();
});

async function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { ...auth, ...headers },
    body: JSON.stringify(body),
  });
}

async function getSession(id: string) {
  return fetch(`${server.url}/v1/sessions/${encodeURIComponent(id)}`, { headers: auth });
}

/** Runs the deployer until it pauses on `callId`; answers the paused run's body. */
async function pausedRun(callId: string, env = 'prod') {
  agents.model.push(deployCall(callId, env));
  const response = await post('/v1/agents/deployer/run', { prompt: `Deploy to ${env}.` });
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown> & { sessionId: string };
}

const errorOf = async (response: Response) =>
  ((await response.json()) as { error: { message: string } }).error.message;

describe('REST sessions', () => {
  it('pauses, shows the pending call, runs it once approved and shows the finished session', async () => {
    const paused = await pausedRun('call_a1');
    expect(paused).toMatchObject({
      success: false,
      exitCode: 'EXIT-AWAITING-APPROVAL',
      pendingApprovals: [{ callId: 'call_a1', tool: 'ops__deploy', arguments: { env: 'prod' } }],
    });
    expect(agents.deployments()).toEqual([]);

    const shown = await getSession(paused.sessionId);
    expect(shown.status).toBe(200);
    expect(await shown.json()).toMatchObject({
      sessionId: paused.sessionId,
      agent: 'deployer',
      status: 'awaiting_approval',
      pendingApprovals: [{ callId: 'call_a1', tool: 'ops__deploy', arguments: { env: 'prod' } }],
      usage: { llmCalls: 1 },
    });

    agents.model.push(finalReport('Deployed to prod.'));
    const resumed = await post(`/v1/sessions/${paused.sessionId}/approvals`, {
      decisions: { call_a1: { approved: true } },
    });
    expect(resumed.status).toBe(200);
    expect(await resumed.json()).toMatchObject({
      success: true,
      sessionId: paused.sessionId,
      finalReport: { content: 'Deployed to prod.' },
    });
    expect(lastToolMessages(agents.model)).toEqual(['deployed to prod']);
    // The call ran once, with the model's call id in _meta for the server to de-duplicate.
    expect(agents.deployments()).toEqual([
      { arguments: { env: 'prod' }, meta: expect.objectContaining({ 'agent/callId': 'call_a1' }) },
    ]);

    const finished = (await (await getSession(paused.sessionId)).json()) as Record<string, unknown>;
    expect(finished).toMatchObject({
      status: 'finished',
      exitCode: 'EXIT-FINAL-ANSWER',
      pendingApprovals: [],
      finalReport: { content: 'Deployed to prod.' },
      usage: { llmCalls: 2 },
    });
    const again = await post(`/v1/sessions/${paused.sessionId}/approvals`, {
      decisions: { call_a1: { approved: true } },
    });
    expect(again.status).toBe(409);
    expect(await errorOf(again)).toMatch(/waits for no approval: it finished \(EXIT-FINAL-ANSWER\)/);
  });

  it('a denial streamed as SSE reaches the model as a tool failure with the reason; the tool never runs', async () => {
    const before = agents.deployments().length;
    const paused = await pausedRun('call_d1', 'staging');
    agents.model.push(finalReport('Not deployed: change freeze.'));
    const response = await post(
      `/v1/sessions/${paused.sessionId}/approvals`,
      { decisions: { call_d1: { approved: false, reason: 'change freeze' } } },
      { accept: 'text/event-stream' },
    );
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const text = await response.text();
    const names = [...text.matchAll(/^event: (.+)$/gm)].map((match) => match[1]);
    expect(names).toContain('final_report');
    expect(names.at(-1)).toBe('result');
    const result = JSON.parse(text.split('event: result\ndata: ')[1]!.split('\n')[0]!);
    expect(result).toMatchObject({ success: true, finalReport: { content: 'Not deployed: change freeze.' } });
    expect(lastToolMessages(agents.model)).toEqual([
      '(tool failed: a person denied this call: change freeze)',
    ]);
    expect(agents.deployments()).toHaveLength(before);
  });

  it('a decision bound to other arguments than the pending call shows is refused; the shown hash runs it once', async () => {
    const paused = await pausedRun('call_h1');
    const pending = (paused.pendingApprovals as { argumentsHash: string }[])[0]!;
    expect(pending.argumentsHash).toBe(argumentsHash({ env: 'prod' }));
    const path = `/v1/sessions/${paused.sessionId}/approvals`;
    const before = agents.deployments().length;
    const other = argumentsHash({ env: 'prod', region: 'all' });
    const wrong = await post(path, { decisions: { call_h1: { approved: true, argumentsHash: other } } });
    expect(wrong.status).toBe(409);
    expect(await errorOf(wrong)).toBe(
      `decision for "call_h1" names arguments ${other}, but the pending call's arguments hash to ${pending.argumentsHash}: decide the call as it is now shown`,
    );
    expect(agents.deployments()).toHaveLength(before);
    agents.model.push(finalReport('Done.'));
    const resumed = await post(path, {
      decisions: { call_h1: { approved: true, argumentsHash: pending.argumentsHash } },
    });
    expect(await resumed.json()).toMatchObject({ success: true });
    expect(agents.deployments()).toHaveLength(before + 1);
  });

  it('refuses decisions for calls that are not pending and malformed ones, losing nothing', async () => {
    const paused = await pausedRun('call_p1');
    const path = `/v1/sessions/${paused.sessionId}/approvals`;
    const notPending = await post(path, { decisions: { call_zz: { approved: true } } });
    expect(notPending.status).toBe(409);
    expect(await errorOf(notPending)).toBe(
      `"call_zz" is not a pending call of session "${paused.sessionId}"; it waits for call_p1`,
    );
    const notBoolean = await post(path, { decisions: { call_p1: { approved: 'yes' } } });
    expect(notBoolean.status).toBe(400);
    expect(await errorOf(notBoolean)).toBe('decision for "call_p1": "approved" must be true or false');
    const empty = await post(path, { decisions: {} });
    expect(empty.status).toBe(400);
    expect(await errorOf(empty)).toMatch(/^"decisions" must be a non-empty object/);
    const extraKey = await post(path, { decisions: { call_p1: { approved: true } }, approve: ['call_p1'] });
    expect(extraKey.status).toBe(400);
    expect(await errorOf(extraKey)).toBe('unknown key "approve" (allowed: decisions)');
    const longReason = await post(path, {
      decisions: { call_p1: { approved: false, reason: 'x'.repeat(2001) } },
    });
    expect(longReason.status).toBe(400);
    // None of that touched the session: it still waits, and resumes.
    const shown = (await (await getSession(paused.sessionId)).json()) as { status: string };
    expect(shown.status).toBe('awaiting_approval');
    agents.model.push(finalReport('Done.'));
    const resumed = await post(path, { decisions: { call_p1: { approved: true } } });
    expect(await resumed.json()).toMatchObject({ success: true, finalReport: { content: 'Done.' } });
  });

  it('answers 404 for an unknown session id and 400 for one that cannot be a session id', async () => {
    const unknown = await getSession('no-such-session');
    expect(unknown.status).toBe(404);
    expect(await errorOf(unknown)).toBe(
      'no session "no-such-session" (never stored, or expired: a finished session is kept for sessions.ttl, an unfinished one at least 30 days)',
    );
    const approvals = await post('/v1/sessions/no-such-session/approvals', {
      decisions: { c: { approved: true } },
    });
    expect(approvals.status).toBe(404);
    const malformed = await getSession('bad id!');
    expect(malformed.status).toBe(400);
    expect(await errorOf(malformed)).toMatch(/^"bad id!" is not a session id \(1-128 letters, digits/);
  });

  it('refuses a session another agent file started (same store, not served here)', async () => {
    agents.model.push(deployCall('call_o1'));
    // Started by a library caller for this token's principal: the token sees it, and is told why not here.
    const paused = await agents.other.run('Deploy to prod.', { owner: principalId('t1') });
    expect(paused.exitCode).toBe('EXIT-AWAITING-APPROVAL');
    const shown = await getSession(paused.sessionId);
    expect(shown.status).toBe(409);
    expect(await errorOf(shown)).toBe(
      `session "${paused.sessionId}" was started by agent "other" from an agent file this server does not serve (served: deployer, lead)`,
    );
    const approvals = await post(`/v1/sessions/${paused.sessionId}/approvals`, {
      decisions: { call_o1: { approved: true } },
    });
    expect(approvals.status).toBe(409);
    expect(agents.deployments().some((call) => call.meta['agent/callId'] === 'call_o1')).toBe(false);
  });

  it("a sub-agent's pending call pauses the lead; decided by its address, the whole tree resumes", async () => {
    agents.model.push(
      toolCall('agent__deployer', { prompt: 'ship it' }, { id: 'call_lead1' }),
      deployCall('call_sub1'),
    );
    const response = await post('/v1/agents/lead/run', { prompt: 'Ship the release.' });
    const paused = (await response.json()) as { sessionId: string };
    expect(paused).toMatchObject({
      exitCode: 'EXIT-AWAITING-APPROVAL',
      pendingApprovals: [{ callId: 'call_lead1/call_sub1', tool: 'ops__deploy', arguments: { env: 'prod' } }],
    });
    const shown = await (await getSession(paused.sessionId)).json();
    expect(shown).toMatchObject({ agent: 'lead', pendingApprovals: [{ callId: 'call_lead1/call_sub1' }] });
    agents.model.push(finalReport('Deployed.', { format: 'sub-agent' }), finalReport('The release shipped.'));
    const resumed = await post(`/v1/sessions/${paused.sessionId}/approvals`, {
      decisions: { 'call_lead1/call_sub1': { approved: true } },
    });
    expect(await resumed.json()).toMatchObject({
      success: true,
      finalReport: { content: 'The release shipped.' },
    });
    expect(agents.deployments().at(-1)).toMatchObject({ meta: { 'agent/callId': 'call_sub1' } });
    expect(lastToolMessages(agents.model)).toEqual(['Deployed.']);
  });
});
