import { describe, expect, it } from 'vitest';
import { helperApprovalModel, writeHelperApprovalAgents } from './helpers.js';
import { until, useQueueFleet } from './queue-harness.js';

const { fleet, jobsLeft } = useQueueFleet();

interface SessionView {
  status: string;
  turn: number;
  exitCode?: string;
  finalReport?: { content?: string };
  pendingApprovals: { callId: string }[];
}

async function readSession(
  origin: string,
  sessionId: string,
): Promise<{ status: number; body: SessionView }> {
  const response = await fetch(`${origin}/v1/sessions/${sessionId}`);
  return { status: response.status, body: (await response.json()) as SessionView };
}

/** Opens a streaming run and reads it until the first event names the session; the body stays open. */
async function startStreamingRun(baseUrl: string, prompt: string): Promise<string> {
  const response = await fetch(`${baseUrl}/echo/run`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({ prompt }),
  });
  expect(response.status).toBe(200);
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`the stream ended before naming its session:\n${text}`);
    text += decoder.decode(value, { stream: true });
    const id = /"sessionId":"([^"]+)"/.exec(text)?.[1];
    if (id !== undefined) {
      // The rest of the stream is never read: the face that holds it is killed.
      void reader.closed.catch(() => undefined);
      return id;
    }
  }
}

describe('sessions of a queue fleet, read and decided through any face', () => {
  it('a run whose face died (SIGKILL) goes on; another face reads its session and report (GET /v1/sessions/:id)', async () => {
    const { model, face, startFace, baseUrl } = await fleet(1, { holdFirstRunOfTurn: 2 });
    const sessionId = await startStreamingRun(baseUrl, 'job-1: do the work');
    await until(() => model.turnsRun.has('job-1#2'));
    face.child.kill('SIGKILL');
    expect(await face.exited).toBe(null);
    const other = new URL((await startFace()).urls.rest!).origin;
    // Mid-run: the first turn is checkpointed, the second waits at the model.
    const during = await readSession(other, sessionId);
    expect(during.status).toBe(200);
    expect(during.body).toMatchObject({ status: 'running', turn: 1 });
    model.release();
    await until(async () => (await readSession(other, sessionId)).body.status === 'finished');
    const after = await readSession(other, sessionId);
    expect(after.body).toMatchObject({
      exitCode: 'EXIT-FINAL-ANSWER',
      finalReport: { content: 'report of job-1' },
    });
    // The face's death cost no turn: each ran once, on the worker.
    expect([1, 2, 3].map((turn) => model.turnsRun.get(`job-1#${turn}`))).toEqual([1, 1, 1]);
    const unknown = await readSession(other, 'no-such-session');
    expect(unknown.status).toBe(404);
  }, 120_000);

  it('a session paused for approval on a worker is decided through a face: the resume runs on a worker', async () => {
    const { baseUrl, name, dir } = await fleet(1, {
      handler: helperApprovalModel,
      prepare: writeHelperApprovalAgents,
    });
    const origin = new URL(baseUrl).origin;
    const paused = (await (
      await fetch(`${baseUrl}/echo/run`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ prompt: 'Greet me.' }),
      })
    ).json()) as {
      exitCode: string;
      sessionId: string;
      pendingApprovals: { callId: string; tool: string }[];
    };
    expect(paused).toMatchObject({
      exitCode: 'EXIT-AWAITING-APPROVAL',
      pendingApprovals: [{ callId: 'call_h1', tool: 'agent__helper' }],
    });
    expect((await readSession(origin, paused.sessionId)).body).toMatchObject({
      status: 'awaiting_approval',
      pendingApprovals: [{ callId: 'call_h1' }],
    });
    const decided = await fetch(`${origin}/v1/sessions/${paused.sessionId}/approvals`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ decisions: { call_h1: { approved: true } } }),
    });
    expect(decided.status).toBe(200);
    const stream = await decided.text();
    const result = JSON.parse(/event: result\ndata: (.*)/.exec(stream)![1]!) as Record<string, unknown>;
    expect(result).toMatchObject({
      success: true,
      sessionId: paused.sessionId,
      finalReport: { content: 'The helper said hi.' },
    });
    // The resumed run's events came from the worker, under the session's id.
    expect(stream).toContain(`"sessionId":"${paused.sessionId}"`);
    expect((await readSession(origin, paused.sessionId)).body).toMatchObject({ status: 'finished' });
    expect(await jobsLeft(name)).toMatchObject({ waiting: 0, active: 0, delayed: 0, failed: 0 });
    expect(dir.model.requests.length).toBe(3);
  }, 120_000);

  it("through the queue, another token cannot read or decide a client's paused session (404); its owner can", async () => {
    const { baseUrl, dir } = await fleet(1, {
      handler: helperApprovalModel,
      prepare: writeHelperApprovalAgents,
      faceArgs: ['--token', 'alice-token', '--token', 'bob-token'],
    });
    const origin = new URL(baseUrl).origin;
    const as = (token: string) => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' });
    const paused = (await (
      await fetch(`${baseUrl}/echo/run`, {
        method: 'POST',
        headers: as('alice-token'),
        body: JSON.stringify({ prompt: 'Greet me.' }),
      })
    ).json()) as { exitCode: string; sessionId: string };
    expect(paused.exitCode).toBe('EXIT-AWAITING-APPROVAL');
    const read = (token: string, id: string) => fetch(`${origin}/v1/sessions/${id}`, { headers: as(token) });
    const unknown = await read('bob-token', 'no-such-session');
    const taken = await read('bob-token', paused.sessionId);
    expect(taken.status).toBe(404);
    expect((await taken.text()).replace(paused.sessionId, '<id>')).toBe(
      (await unknown.text()).replace('no-such-session', '<id>'),
    );
    const decided = await fetch(`${origin}/v1/sessions/${paused.sessionId}/approvals`, {
      method: 'POST',
      headers: as('bob-token'),
      body: JSON.stringify({ decisions: { call_h1: { approved: true } } }),
    });
    expect(decided.status).toBe(404);
    // Nothing ran: the model was asked once (the pause), the helper never.
    expect(dir.model.requests.length).toBe(1);
    const own = await read('alice-token', paused.sessionId);
    expect(own.status).toBe(200);
    expect(await own.json()).toMatchObject({
      status: 'awaiting_approval',
      pendingApprovals: [{ callId: 'call_h1' }],
    });
    const approved = await fetch(`${origin}/v1/sessions/${paused.sessionId}/approvals`, {
      method: 'POST',
      headers: as('alice-token'),
      body: JSON.stringify({ decisions: { call_h1: { approved: true } } }),
    });
    expect(await approved.json()).toMatchObject({
      success: true,
      finalReport: { content: 'The helper said hi.' },
    });
    // The resumed session stays Alice's on the worker's checkpoints.
    expect((await read('bob-token', paused.sessionId)).status).toBe(404);
    expect(await (await read('alice-token', paused.sessionId)).json()).toMatchObject({ status: 'finished' });
  }, 120_000);
});
