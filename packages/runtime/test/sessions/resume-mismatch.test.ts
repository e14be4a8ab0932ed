import { join } from 'node:path';
import { openSqliteSessionStore } from '@agent/cache';
import type { SessionStore } from '@agent/protocol';
import { finalReport, type ModelServer, startModelServer, toolCall } from '@agent/testkit';
import { afterEach, expect, test } from 'vitest';
import { createAgentRunner, resumeStoredSession } from '../../src/index.js';
import { agentFile, isolated, localConfig, tempTree } from '../helpers/temp-tree.js';

// Issue 16, bad input: resuming a stored session with another agent file, or a snapshot of a
// newer version than this release reads, is refused with EXIT-CONFIGURATION saying why, before
// any model call, and the stored snapshot is left exactly as it was (it still resumes rightly).
const servers: ModelServer[] = [];
const stores: SessionStore[] = [];
afterEach(async () => {
  await Promise.all(stores.splice(0).map((store) => store.close()));
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function pausedSession() {
  const server = await startModelServer({
    steps: [toolCall('agent__helper', { prompt: 'say hi' }, { id: 'call_h1' })],
  });
  servers.push(server);
  const root = tempTree({
    'agent.json': localConfig({}, `${server.url}/v1`),
    'main.ai': agentFile('models: [local/m]\nagents: [helper.ai]\napproval:\n  tools: [agent__helper]'),
    'other.ai': agentFile('models: [local/m]\nagents: [helper.ai]', 'You are another agent.'),
    'helper.ai': agentFile('models: [local/m]\ndescription: Says hi'),
  });
  const state = join(root, 'state');
  const options = isolated(root, { env: { XDG_STATE_HOME: state } });
  const runner = await createAgentRunner('main.ai', options);
  const paused = await runner.run('Greet me.');
  await runner.close();
  expect(paused.exitCode).toBe('EXIT-AWAITING-APPROVAL');
  // The same SQLite file the runners use (several processes share it).
  const store = await openSqliteSessionStore({
    path: join(state, 'agent', 'sessions.sqlite'),
    ttlMs: 60_000,
  });
  stores.push(store);
  return { server, options, store, sessionId: paused.sessionId };
}

const approve = { call_h1: { approved: true } };

test('resuming with another agent file is refused, naming both agents; the stored snapshot is unchanged and resumes with its own file', async () => {
  const { server, options, store, sessionId } = await pausedSession();
  const before = await store.load(sessionId);

  const refused = await resumeStoredSession(sessionId, {
    ...options,
    agentFile: 'other.ai',
    approvals: approve,
  });
  expect(refused.success).toBe(false);
  expect(refused.exitCode).toBe('EXIT-CONFIGURATION');
  expect(refused.error).toContain(
    `the snapshot of session ${sessionId} was taken with other agent settings (agent "main"`,
  );
  expect(refused.error).toContain('this agent "other"');
  expect(refused.error).toContain('resume it with the agent file, models and tools that started it');
  // A runner of the other file refuses it the same way.
  const otherRunner = await createAgentRunner('other.ai', options);
  try {
    const again = await otherRunner.resume(sessionId, { approvals: approve });
    expect(again.exitCode).toBe('EXIT-CONFIGURATION');
    expect((await otherRunner.storedSession(sessionId))?.startedHere).toBe(false);
  } finally {
    await otherRunner.close();
  }
  expect(server.requests).toHaveLength(1);
  expect(await store.load(sessionId)).toEqual(before);

  server.push(finalReport('hi', { format: 'sub-agent' }), finalReport('The helper said hi.'));
  const resumed = await resumeStoredSession(sessionId, { ...options, approvals: approve });
  expect(resumed.success, resumed.error).toBe(true);
  expect(resumed.finalReport?.content).toBe('The helper said hi.');
});

test('a stored snapshot of a newer version is refused, saying which versions this release reads; it is left as stored', async () => {
  const { server, options, store, sessionId } = await pausedSession();
  const current = await store.load(sessionId);
  const newer = { ...current!, sessionId: 'from-the-future', version: 99 };
  await store.save(newer);
  const stored = await store.load('from-the-future');

  const refused = await resumeStoredSession('from-the-future', { ...options, approvals: approve });
  expect(refused.success).toBe(false);
  expect(refused.exitCode).toBe('EXIT-CONFIGURATION');
  expect(refused.error).toContain(
    'the snapshot is version 99, newer than this release reads (up to 2): resume it with a newer @agent/core',
  );
  expect(server.requests).toHaveLength(1);
  expect(await store.load('from-the-future')).toEqual(stored);
});
