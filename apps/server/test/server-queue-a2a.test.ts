import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  a2aClient,
  artifactValues,
  asTask,
  dataPart,
  send,
  stateOf,
  statusData,
  textPart,
} from '@agent/testkit/a2a';
import { describe, expect, it } from 'vitest';
import { helperApprovalModel, writeHelperApprovalAgents } from './helpers.js';
import { until, useQueueFleet } from './queue-harness.js';

const { fleet, jobsLeft } = useQueueFleet();

/** An agent.json whose provider answers nothing: a face given it can run no model call itself. */
function deadProviderConfig(dir: string): string {
  const file = join(dir, 'dead-provider.json');
  writeFileSync(
    file,
    JSON.stringify({ providers: { local: { type: 'openai-compatible', baseURL: 'http://127.0.0.1:9/v1' } } }),
  );
  return file;
}

describe('A2A tasks on a queue fleet', () => {
  it('a task paused for approval on a worker is decided through the A2A face after a SIGKILL of the face that started it: the resume runs on a worker', async () => {
    const { face, startFace, name, dir } = await fleet(1, {
      handler: helperApprovalModel,
      prepare: writeHelperApprovalAgents,
      faceArgs: ['--a2a', '0', '--token', 'tok-1'],
      headends: 2,
    });
    const auth = { authorization: 'Bearer tok-1' };
    const paused = asTask(
      await (await a2aClient(face.urls.a2a!, 'echo', 'tok-1')).sendMessage(send([textPart('Greet me.')])),
    );
    expect(stateOf(paused)).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(statusData(paused)).toEqual([
      { pendingApprovals: [expect.objectContaining({ callId: 'call_h1', tool: 'agent__helper' })] },
    ]);
    face.child.kill('SIGKILL');
    await face.exited;

    // The new face cannot call the model itself: what runs, runs on the worker.
    const other = await startFace(
      ['--a2a', '0', '--token', 'tok-1', '--agent-config', deadProviderConfig(dir.dir)],
      2,
    );
    const client = await a2aClient(other.urls.a2a!, 'echo', 'tok-1');
    const read = await client.getTask({ id: paused.id, historyLength: 0, tenant: '' });
    expect(stateOf(read)).toBe('TASK_STATE_INPUT_REQUIRED');
    // Task id = session id = the job's id: the REST face of the fleet reads the same session.
    const session = await fetch(`${new URL(other.urls.rest!).origin}/v1/sessions/${paused.id}`, {
      headers: auth,
    });
    expect(await session.json()).toMatchObject({ status: 'awaiting_approval' });
    const decided = asTask(
      await client.sendMessage(send([dataPart({ decisions: { call_h1: { approved: true } } })], read)),
    );
    expect(stateOf(decided)).toBe('TASK_STATE_COMPLETED');
    expect(decided.id).toBe(paused.id);
    expect(artifactValues(decided)).toEqual(['The helper said hi.']);
    const after = await fetch(`${new URL(other.urls.rest!).origin}/v1/sessions/${paused.id}`, {
      headers: auth,
    });
    expect(await after.json()).toMatchObject({
      status: 'finished',
      finalReport: { content: 'The helper said hi.' },
    });
    expect(await jobsLeft(name)).toMatchObject({ waiting: 0, active: 0, delayed: 0, failed: 0 });
    // The pause, the helper, the report: each once.
    expect(dir.model.requests.length).toBe(3);
  }, 150_000);

  it('CancelTask on another face stops the task on its worker', async () => {
    const { model, face, startFace, name } = await fleet(1, {
      holdFirstRunOfTurn: 2,
      faceArgs: ['--a2a', '0', '--token', 'tok-1'],
      headends: 2,
    });
    const started = asTask(
      await (await a2aClient(face.urls.a2a!, 'echo', 'tok-1')).sendMessage({
        ...send([textPart('job-1: do the work')]),
        configuration: {
          acceptedOutputModes: [],
          taskPushNotificationConfig: undefined,
          returnImmediately: true,
        },
      }),
    );
    // The second turn hangs at the model: the job runs on the worker until something stops it.
    await until(() => model.turnsRun.has('job-1#2'));
    const other = await startFace(['--a2a', '0', '--token', 'tok-1'], 2);
    const client = await a2aClient(other.urls.a2a!, 'echo', 'tok-1');
    const canceled = await client.cancelTask({ id: started.id, tenant: '', metadata: {} });
    expect(stateOf(canceled)).toBe('TASK_STATE_CANCELED');
    // The worker gave the job up without the model ever answering.
    expect(await jobsLeft(name)).toMatchObject({ waiting: 0, active: 0 });
    expect(model.turnsRun.get('job-1#3')).toBeUndefined();
    model.release();
  }, 150_000);
});
