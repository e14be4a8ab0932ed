import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RecordedRequest, ScriptedAnswer } from '@agent/testkit';
import { describe, expect, it } from 'vitest';
import { finalReport } from './helpers.js';
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

/** The approval agent's model: the top agent asks its helper (a call that needs approval), then reports. */
function approvalModel(request: RecordedRequest): ScriptedAnswer {
  const system = request.messages.find((message) => message.role === 'system');
  if (String(system?.content ?? '').includes('You are helper.')) return { text: finalReport('hi') };
  if (!request.messages.some((message) => message.role === 'assistant')) {
    return { toolCalls: [{ id: 'call_h1', name: 'agent__helper', arguments: { prompt: 'say hi' } }] };
  }
  return { text: finalReport('The helper said hi.') };
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
      handler: approvalModel,
      prepare: (agents) => {
        writeFileSync(
          agents.files[0]!,
          '---\ndescription: The echo agent.\nmodels: [local/m]\nagents: [helper.ai]\napproval:\n  tools: [agent__helper]\n---\nYou are echo.\n',
        );
        writeFileSync(
          join(agents.dir, 'helper.ai'),
          '---\ndescription: Says hi.\nmodels: [local/m]\n---\nYou are helper.\n',
        );
      },
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
});
