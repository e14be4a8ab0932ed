import { type StreamResponse, type Task, TaskState } from '@a2a-js/sdk';
import { finalReport } from '@agent/testkit';
import {
  a2aClient,
  asTask,
  dataPart as data,
  sendRequest,
  statusText,
  textPart as text,
  userMessage,
} from '@agent/testkit/a2a';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createA2aHeadend, type ServedHeadend, serve } from '../../src/index.js';
import {
  type ApprovalAgents,
  deployCall,
  lastToolMessages,
  startApprovalAgents,
} from '../helpers/approvals.js';

// Approvals over A2A: a run that pauses for approval is an INPUT_REQUIRED task whose status
// message holds the pending calls; the client's next message on the task decides them and the
// session resumes. Real runners, a real stdio MCP tool that needs approval, the official client.
let agents: ApprovalAgents;
let server: ServedHeadend;

beforeAll(async () => {
  agents = await startApprovalAgents();
  server = await serve(createA2aHeadend({ catalog: agents.catalog, tokens: ['t1', 't2'] }));
});

afterAll(async () => {
  await server.close();
  await agents.close();
});

/** The data part of a task's status message. */
function statusData(task: Task): unknown {
  const part = task.status?.message?.parts.find((p) => p.content?.$case === 'data');
  return part?.content?.$case === 'data' ? part.content.value : undefined;
}

/** Runs the deployer until it pauses on `callId`; the INPUT_REQUIRED task. */
async function pausedTask(baseUrl: string, callId: string, env = 'prod'): Promise<Task> {
  agents.model.push(deployCall(callId, env));
  const client = await a2aClient(`${baseUrl}/a2a`, 'deployer', 't1');
  const task = asTask(await client.sendMessage(sendRequest(userMessage([text(`Deploy to ${env}.`)]))));
  expect(task.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
  return task;
}

describe('A2A approvals through input-required', () => {
  it('asks with the pending call, keeps waiting on a bad decision, runs the call once approved', async () => {
    const paused = await pausedTask(server.url, 'call_a1');
    expect(statusData(paused)).toEqual({
      pendingApprovals: [
        {
          callId: 'call_a1',
          tool: 'ops__deploy',
          arguments: { env: 'prod' },
          argumentsHash: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
        },
      ],
    });
    expect(statusText(paused)).toMatch(/Waiting for approval of ops__deploy \(call_a1\)/);
    expect(agents.deployments()).toEqual([]);

    const client = await a2aClient(`${server.url}/a2a`, 'deployer', 't1');
    const on = (parts: Parameters<typeof userMessage>[0]) => userMessage(parts, paused.id, paused.contextId);
    const wrong = asTask(
      await client.sendMessage(sendRequest(on([data({ decisions: { call_zz: { approved: true } } })]))),
    );
    expect(wrong.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(statusText(wrong)).toMatch(/"call_zz" is not a pending call of session .*; it waits for call_a1/);
    const vague = asTask(await client.sendMessage(sendRequest(on([text('maybe later')]))));
    expect(vague.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(statusText(vague)).toMatch(/no decisions in the message/);
    expect(agents.deployments()).toEqual([]);

    agents.model.push(finalReport('Deployed to prod.'));
    const seen: StreamResponse['payload'][] = [];
    const approve = on([data({ decisions: { call_a1: { approved: true } } })]);
    for await (const event of client.sendMessageStream(sendRequest(approve))) seen.push(event.payload);
    const updates = seen.flatMap((payload) =>
      payload?.$case === 'statusUpdate' ? [payload.value.status] : [],
    );
    expect(updates.map((status) => status?.state).at(-1)).toBe(TaskState.TASK_STATE_COMPLETED);
    const progress = updates.flatMap((status) =>
      (status?.message?.parts ?? []).map((part) =>
        part.content?.$case === 'text' ? part.content.value : '',
      ),
    );
    expect(progress).toContain('running ops__deploy');
    const artifact = seen.find((payload) => payload?.$case === 'artifactUpdate');
    expect(artifact?.$case === 'artifactUpdate' && artifact.value.artifact?.parts[0]?.content).toEqual({
      $case: 'text',
      value: 'Deployed to prod.',
    });
    expect(lastToolMessages(agents.model)).toEqual(['deployed to prod']);
    expect(agents.deployments()).toHaveLength(1);
    const done = await client.getTask({ tenant: '', id: paused.id });
    expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it('a text "deny: <reason>" decides the one waiting call; the model hears the reason', async () => {
    const before = agents.deployments().length;
    const paused = await pausedTask(server.url, 'call_d1', 'staging');
    agents.model.push(finalReport('Not deployed: change freeze.'));
    const client = await a2aClient(`${server.url}/a2a`, 'deployer', 't1');
    const answer = userMessage([text('deny: change freeze')], paused.id, paused.contextId);
    const task = asTask(await client.sendMessage(sendRequest(answer)));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(lastToolMessages(agents.model)).toEqual([
      '(tool failed: a person denied this call: change freeze)',
    ]);
    expect(agents.deployments()).toHaveLength(before);
  });

  it('after a restart (a new face), the paused task is read from the session store and approved there', async () => {
    const paused = await pausedTask(server.url, 'call_r1');
    const restarted = await serve(createA2aHeadend({ catalog: agents.catalog, tokens: ['t1', 't2'] }));
    try {
      const client = await a2aClient(`${restarted.url}/a2a`, 'deployer', 't1');
      const read = await client.getTask({ tenant: '', id: paused.id });
      expect(read.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
      expect(statusData(read)).toMatchObject({
        pendingApprovals: [{ callId: 'call_r1', tool: 'ops__deploy' }],
      });
      const other = await a2aClient(`${restarted.url}/a2a`, 'deployer', 't2');
      await expect(other.getTask({ tenant: '', id: paused.id })).rejects.toThrow(/Task not found/);
      // The lead agent does not serve the deployer's tasks.
      const lead = await a2aClient(`${restarted.url}/a2a`, 'lead', 't1');
      await expect(lead.getTask({ tenant: '', id: paused.id })).rejects.toThrow(/Task not found/);

      agents.model.push(finalReport('Deployed after restart.'));
      const approve = userMessage([text('approve')], paused.id, paused.contextId);
      const task = asTask(await client.sendMessage(sendRequest(approve)));
      expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      expect(task.artifacts[0]?.parts[0]?.content).toEqual({
        $case: 'text',
        value: 'Deployed after restart.',
      });
      expect(lastToolMessages(agents.model)).toEqual(['deployed to prod']);
    } finally {
      await restarted.close();
    }
  });

  it('keeps maxTasks tasks in memory; an evicted paused task is read back from the session store', async () => {
    const small = await serve(createA2aHeadend({ catalog: agents.catalog, tokens: ['t1'], maxTasks: 1 }));
    try {
      const first = await pausedTask(small.url, 'call_m1');
      const client = await a2aClient(`${small.url}/a2a`, 'deployer', 't1');
      // In memory, the task keeps its history (the user's message).
      expect((await client.getTask({ tenant: '', id: first.id })).history.length).toBeGreaterThan(0);
      await pausedTask(small.url, 'call_m2');
      const readBack = await client.getTask({ tenant: '', id: first.id });
      expect(readBack.history).toEqual([]);
      expect(readBack.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
      expect(statusData(readBack)).toMatchObject({ pendingApprovals: [{ callId: 'call_m1' }] });
    } finally {
      await small.close();
    }
  });
});
