import { join } from 'node:path';
import { argumentsHash } from '@agent/core';
import { finalReport, type ModelServer, type ScriptStep, startModelServer, toolCall } from '@agent/testkit';
import { afterEach, expect, test } from 'vitest';
import { createAgentRunner, resumeStoredSession } from '../../src/index.js';
import { agentFile, isolated, localConfig, tempTree } from '../helpers/temp-tree.js';

// Issue 16: a sub-agent's pending approval pauses the whole tree. main -> helper -> leaf, where
// helper's call of leaf needs approval: main's result waits for `call_h1/call_l1`; deciding it
// resumes main, which runs helper again from helper's paused session, over HTTP to the model.
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

const mainCallsHelper = toolCall('agent__helper', { prompt: 'do it' }, { id: 'call_h1' });
const helperCallsLeaf = toolCall('agent__leaf', { prompt: 'risky part' }, { id: 'call_l1' });

const toolMessages = (server: ModelServer, index: number) =>
  server.requests[index]!.messages.filter((m) => m.role === 'tool').map((m) => String(m.content));

test("a sub-agent's pending call pauses the top agent, addressed through it; approving resumes the whole tree", async () => {
  const { server, options } = await tree([mainCallsHelper, helperCallsLeaf]);
  const runner = await createAgentRunner('main.ai', options);
  let sessionId: string;
  try {
    const paused = await runner.run('Start.');
    expect(paused.exitCode).toBe('EXIT-AWAITING-APPROVAL');
    expect(paused.success ? [] : paused.pendingApprovals).toEqual([
      {
        callId: 'call_h1/call_l1',
        tool: 'agent__leaf',
        arguments: { prompt: 'risky part' },
        argumentsHash: argumentsHash({ prompt: 'risky part' }),
      },
    ]);
    expect(paused.error).toContain('call_h1/call_l1 (agent__leaf)');
    expect(server.requests).toHaveLength(2);
    sessionId = paused.sessionId;
  } finally {
    await runner.close();
  }
  // From a fresh start: the leaf reports, then the helper, then main.
  server.push(
    finalReport('leaf done', { format: 'sub-agent' }),
    finalReport('helper done', { format: 'sub-agent' }),
    finalReport('All done.'),
  );
  const resumed = await resumeStoredSession(sessionId, {
    ...options,
    approvals: { 'call_h1/call_l1': { approved: true } },
  });
  expect(resumed.success, resumed.error).toBe(true);
  expect(resumed.finalReport?.content).toBe('All done.');
  expect(server.requests).toHaveLength(5);
  // The leaf got its prompt; the helper continued its own conversation with the leaf's report.
  expect(
    server.requests[2]!.messages.some((m) => m.role === 'user' && String(m.content).includes('risky part')),
  ).toBe(true);
  expect(toolMessages(server, 3)).toEqual(['leaf done']);
  expect(server.requests[3]!.messages.filter((m) => m.role === 'assistant')).toHaveLength(1);
  expect(toolMessages(server, 4)).toEqual(['helper done']);
});

test("denying the sub-agent's call reaches the sub-agent as a tool failure; decisions for other ids are refused", async () => {
  const { server, options } = await tree([mainCallsHelper, helperCallsLeaf]);
  const runner = await createAgentRunner('main.ai', options);
  try {
    const paused = await runner.run('Start.');
    const wrong = await runner.resume(paused.sessionId, { approvals: { call_l1: { approved: true } } });
    expect(wrong.error).toContain('"call_l1" is not a pending call');
    expect(wrong.error).toContain('waits for call_h1/call_l1');
    server.push(finalReport('could not', { format: 'sub-agent' }), finalReport('Helper was refused.'));
    const resumed = await runner.resume(paused.sessionId, {
      approvals: { 'call_h1/call_l1': { approved: false, reason: 'too risky' } },
    });
    expect(resumed.success, resumed.error).toBe(true);
    expect(resumed.finalReport?.content).toBe('Helper was refused.');
    expect(toolMessages(server, 2)).toEqual(['(tool failed: a person denied this call: too risky)']);
    expect(toolMessages(server, 3)).toEqual(['could not']);
  } finally {
    await runner.close();
  }
});
