import { join } from 'node:path';
import { argumentsHash } from '@agent/core';
import { finalReport, type ModelServer, type ScriptStep, startModelServer, toolCall } from '@agent/testkit';
import { afterEach, expect, test } from 'vitest';
import { createAgentRunner, resumeStoredSession } from '../../src/index.js';
import { agentFile, isolated, localConfig, tempTree } from '../helpers/temp-tree.js';

// Issue 16: a sub-agent called inside `agent__batch` whose own call waits for approval pauses the
// whole tree, as a direct sub-agent call does. main batches helper (labelled "risky") beside a
// tool that does not exist; helper's call of leaf needs approval. The pending call is addressed
// through the batch's inner call: `call_b1:risky/call_l1`.
const servers: ModelServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function tree(steps: ScriptStep[]) {
  const server = await startModelServer({ steps });
  servers.push(server);
  const root = tempTree({
    'agent.json': localConfig({}, `${server.url}/v1`),
    'main.ai': agentFile('models: [local/m]\nagents: [helper.ai]'),
    'helper.ai': agentFile(
      'models: [local/m]\ndescription: Helps\nagents: [leaf.ai]\napproval:\n  tools: [agent__leaf]',
    ),
    'leaf.ai': agentFile('models: [local/m]\ndescription: Does the risky part'),
  });
  return { server, options: isolated(root, { env: { XDG_STATE_HOME: join(root, 'state') } }) };
}

const mainBatches = toolCall(
  'agent__batch',
  {
    calls: [
      { id: 'risky', tool: 'agent__helper', parameters: { prompt: 'do it' } },
      { id: 'other', tool: 'nope__missing', parameters: {} },
    ],
  },
  { id: 'call_b1' },
);
const helperCallsLeaf = toolCall('agent__leaf', { prompt: 'risky part' }, { id: 'call_l1' });

const toolMessages = (server: ModelServer, index: number) =>
  server.requests[index]!.messages.filter((m) => m.role === 'tool').map((m) => String(m.content));

test('a sub-agent inside agent__batch that waits for approval pauses the top agent; approving runs the batch item and the tree goes on', async () => {
  const { server, options } = await tree([mainBatches, helperCallsLeaf]);
  const runner = await createAgentRunner('main.ai', options);
  let sessionId: string;
  try {
    const paused = await runner.run('Start.');
    expect(paused.exitCode).toBe('EXIT-AWAITING-APPROVAL');
    expect(paused.success ? [] : paused.pendingApprovals).toEqual([
      {
        callId: 'call_b1:risky/call_l1',
        tool: 'agent__leaf',
        arguments: { prompt: 'risky part' },
        argumentsHash: argumentsHash({ prompt: 'risky part' }),
      },
    ]);
    // The model was not told the batch failed: main asked once, helper once, nothing more.
    expect(server.requests).toHaveLength(2);
    sessionId = paused.sessionId;
  } finally {
    await runner.close();
  }
  server.push(
    finalReport('leaf done', { format: 'sub-agent' }),
    finalReport('helper done', { format: 'sub-agent' }),
    finalReport('All done.'),
  );
  const resumed = await resumeStoredSession(sessionId, {
    ...options,
    approvals: { 'call_b1:risky/call_l1': { approved: true } },
  });
  expect(resumed.success, resumed.error).toBe(true);
  expect(resumed.finalReport?.content).toBe('All done.');
  expect(server.requests).toHaveLength(5);
  // The leaf ran with its prompt; the helper continued its own session (one assistant turn before).
  expect(
    server.requests[2]!.messages.some((m) => m.role === 'user' && String(m.content).includes('risky part')),
  ).toBe(true);
  expect(toolMessages(server, 3)).toEqual(['leaf done']);
  expect(server.requests[3]!.messages.filter((m) => m.role === 'assistant')).toHaveLength(1);
  // main got the batch's result once, with the helper's report under its label.
  const [batchResult, ...more] = toolMessages(server, 4);
  expect(more).toEqual([]);
  expect(batchResult).toContain('--- result of call risky (agent__helper) ---\nhelper done');
  expect(batchResult).toContain('--- result of call other (nope__missing) [failed] ---');
  expect(batchResult).not.toContain('waiting for approval');
});

test("denying the batched sub-agent's call reaches that sub-agent as a tool failure; the short id is refused", async () => {
  const { server, options } = await tree([mainBatches, helperCallsLeaf]);
  const runner = await createAgentRunner('main.ai', options);
  try {
    const paused = await runner.run('Start.');
    const wrong = await runner.resume(paused.sessionId, {
      approvals: { 'call_b1/call_l1': { approved: true } },
    });
    expect(wrong.error).toContain('"call_b1/call_l1" is not a pending call');
    expect(wrong.error).toContain('waits for call_b1:risky/call_l1');
    server.push(finalReport('could not', { format: 'sub-agent' }), finalReport('Helper was refused.'));
    const resumed = await runner.resume(paused.sessionId, {
      approvals: { 'call_b1:risky/call_l1': { approved: false, reason: 'too risky' } },
    });
    expect(resumed.success, resumed.error).toBe(true);
    expect(resumed.finalReport?.content).toBe('Helper was refused.');
    expect(toolMessages(server, 2)).toEqual(['(tool failed: a person denied this call: too risky)']);
    expect(toolMessages(server, 3)[0]).toContain('--- result of call risky (agent__helper) ---\ncould not');
  } finally {
    await runner.close();
  }
});
