import { join } from 'node:path';
import { openSessionStore } from '@agent/cache';
import { argumentsHash } from '@agent/core';
import { type ModelServer, type ScriptStep, startModelServer } from '@agent/testkit';
import { afterEach, expect, test } from 'vitest';
import { createAgentRunner } from '../../src/index.js';
import { sessionConfigOf } from '../helpers/prepare.js';
import { agentFile, isolated, localConfig, tempTree } from '../helpers/temp-tree.js';

// Issue 16 through the runtime: `approval` in the agent file and on MCP servers; a run without
// an approver pauses, its snapshot goes to the session store, `resume` continues it.
const servers: ModelServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(steps: ScriptStep[]): Promise<ModelServer> {
  const server = await startModelServer({ steps });
  servers.push(server);
  return server;
}

const helperCall = {
  text: 'Asking the helper.',
  toolCalls: [{ id: 'call_h1', name: 'agent__helper', arguments: { prompt: 'say hi' } }],
};

function tree(server: ModelServer, extra: object = {}) {
  const root = tempTree({
    'agent.json': localConfig(extra, `${server.url}/v1`),
    'main.ai': agentFile('models: [local/m]\nagents: [helper.ai]\napproval:\n  tools: [agent__help*]'),
    'helper.ai': agentFile('models: [local/m]\ndescription: Says hi'),
  });
  const state = join(root, 'state');
  return { root, state, options: { ...isolated(root, { env: { XDG_STATE_HOME: state } }) } };
}

test('a paused run is stored under the state dir; resume with an approval runs the call; a second resume is refused', async () => {
  const { finalReport } = await import('@agent/testkit');
  const server = await serve([helperCall]);
  const { state, options } = tree(server);
  const runner = await createAgentRunner('main.ai', options);
  try {
    const paused = await runner.run('Greet me.');
    expect(paused.exitCode).toBe('EXIT-AWAITING-APPROVAL');
    expect(paused.success ? undefined : paused.pendingApprovals).toEqual([
      {
        callId: 'call_h1',
        tool: 'agent__helper',
        arguments: { prompt: 'say hi' },
        argumentsHash: argumentsHash({ prompt: 'say hi' }),
      },
    ]);
    const store = await openSessionStore({}, { env: { XDG_STATE_HOME: state } });
    expect(store.location).toBe(join(state, 'agent', 'sessions.sqlite'));
    expect((await store.load(paused.sessionId))?.status).toBe('awaiting_approval');

    const unknown = await runner.resume('no-such-session');
    expect(unknown.exitCode).toBe('EXIT-CONFIGURATION');
    expect(unknown.error).toContain('no session "no-such-session" in the session store');
    const wrongCall = await runner.resume(paused.sessionId, { approvals: { call_x: { approved: true } } });
    expect(wrongCall.error).toContain('"call_x" is not a pending call');

    // The helper answers, then the top agent reports.
    server.push(finalReport('hi'), finalReport('The helper said hi.'));
    const resumed = await runner.resume(paused.sessionId, { approvals: { call_h1: { approved: true } } });
    expect(resumed.success, resumed.error).toBe(true);
    expect(resumed.finalReport?.content).toBe('The helper said hi.');
    expect(resumed.sessionId).toBe(paused.sessionId);
    expect((await store.load(paused.sessionId))?.status).toBe('finished');
    const again = await runner.resume(paused.sessionId);
    expect(again.error).toContain('already finished');
    await store.close();
  } finally {
    await runner.close();
  }
});

test('an approver decides at once; a denial reaches the model as a tool failure with the reason', async () => {
  const { finalReport } = await import('@agent/testkit');
  const server = await serve([helperCall, finalReport('Denied, so no greeting.')]);
  const runner = await createAgentRunner('main.ai', tree(server).options);
  try {
    const result = await runner.run('Greet me.', {
      approver: (request) => ({ approved: false, reason: `not ${request.tool} today` }),
    });
    expect(result.success).toBe(true);
    const toolMessages = server.requests[1]!.messages.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(toolMessages).toEqual(['(tool failed: a person denied this call: not agent__helper today)']);
  } finally {
    await runner.close();
  }
});

test("approval on an MCP server in agent.json covers that server's tools under its prefix", async () => {
  const root = tempTree({
    'agent.json': localConfig({
      mcpServers: { fs: { command: 'agent-fs-mcp', args: ['.'], approval: { tools: ['Write*', 'Edit'] } } },
    }),
    'a.ai': agentFile('models: [local/m]\ntools: [fs]\napproval:\n  tools: [agent__deploy]'),
  });
  const { config } = await sessionConfigOf('a.ai', isolated(root));
  expect(config.approval).toEqual({ tools: ['agent__deploy', 'fs__Write*', 'fs__Edit'] });
});

test('resumeStoredSession finds the session and its agent file from a fresh start, by id alone', async () => {
  const { finalReport } = await import('@agent/testkit');
  const { resumeStoredSession } = await import('../../src/index.js');
  const server = await serve([helperCall]);
  const { options } = tree(server);
  const runner = await createAgentRunner('main.ai', options);
  const paused = await runner.run('Greet me.');
  await runner.close();
  expect(paused.exitCode).toBe('EXIT-AWAITING-APPROVAL');
  server.push(finalReport('hi'), finalReport('Greeted.'));
  const resumed = await resumeStoredSession(paused.sessionId, {
    ...options,
    approvals: { call_h1: { approved: true } },
  });
  expect(resumed.success, resumed.error).toBe(true);
  expect(resumed.finalReport?.content).toBe('Greeted.');
  const missing = await resumeStoredSession('nope-123', options);
  expect(missing.error).toMatch(/^no session "nope-123" in the session store .*sessions\.sqlite/);
});

test('with sessions.store redis (a real redis-server) a paused run is stored there and resumes from it', async () => {
  const { finalReport, startRedisServer } = await import('@agent/testkit');
  const redis = await startRedisServer();
  try {
    const server = await serve([helperCall]);
    const { options, state } = tree(server, { sessions: { store: 'redis', url: redis.url, ttl: '1h' } });
    const runner = await createAgentRunner('main.ai', options);
    try {
      const paused = await runner.run('Greet me.', { sessionId: 'redis-paused-1' });
      expect(paused.exitCode).toBe('EXIT-AWAITING-APPROVAL');
      // The runner's state directory holds the snapshot key its store made.
      const store = await openSessionStore({ store: 'redis', url: redis.url }, { env: options.env });
      expect((await store.load('redis-paused-1'))?.pending?.map((p) => p.callId)).toEqual(['call_h1']);
      await store.close();
      // Nothing went to the default SQLite file; the key the Redis store seals with is in the state directory.
      const { existsSync } = await import('node:fs');
      expect(existsSync(join(state, 'agent', 'sessions.sqlite'))).toBe(false);
      expect(existsSync(join(state, 'agent', 'snapshot.key'))).toBe(true);
      server.push(finalReport('hi', { format: 'sub-agent' }), finalReport('Greeted via Redis.'));
      const resumed = await runner.resume('redis-paused-1', { approvals: { call_h1: { approved: true } } });
      expect(resumed.success, resumed.error).toBe(true);
      expect(resumed.finalReport?.content).toBe('Greeted via Redis.');
    } finally {
      await runner.close();
    }
  } finally {
    await redis.close();
  }
});

test('a runner given a sessionStore checkpoints into it and resumes from it, and leaves it open', async () => {
  const { finalReport } = await import('@agent/testkit');
  const { createMemoryStore } = await import('./memory-store.js');
  const server = await serve([helperCall]);
  const { state, options } = tree(server);
  const store = createMemoryStore();
  const runner = await createAgentRunner('main.ai', { ...options, sessionStore: store });
  const paused = await runner.run('Greet me.', { durable: true, sessionId: 'given-store-1' });
  expect(paused.exitCode).toBe('EXIT-AWAITING-APPROVAL');
  expect((await store.load('given-store-1'))?.status).toBe('awaiting_approval');
  // Nothing went to the store agent.json would name (the SQLite file under the state dir).
  const sqlite = await openSessionStore({}, { env: { XDG_STATE_HOME: state } });
  expect(await sqlite.load('given-store-1')).toBeUndefined();
  await sqlite.close();
  server.push(finalReport('hi'), finalReport('The helper said hi.'));
  const resumed = await runner.resume('given-store-1', { approvals: { call_h1: { approved: true } } });
  expect(resumed.success).toBe(true);
  expect((await store.load('given-store-1'))?.status).toBe('finished');
  await runner.close();
  expect(store.closed).toBe(false);
});

test('a paused session edited in the SQLite store (one byte) is refused by resumeStoredSession; nothing runs', async () => {
  const { resumeStoredSession } = await import('../../src/index.js');
  const Database = (await import('better-sqlite3')).default;
  const server = await serve([helperCall]);
  const { options, state } = tree(server);
  const runner = await createAgentRunner('main.ai', options);
  const paused = await runner.run('Greet me.');
  await runner.close();
  expect(paused.exitCode).toBe('EXIT-AWAITING-APPROVAL');
  const db = new Database(join(state, 'agent', 'sessions.sqlite'));
  const row = db.prepare('SELECT snapshot FROM sessions WHERE id = ?').get(paused.sessionId) as {
    snapshot: string;
  };
  expect(row.snapshot).toContain('"prompt":"say hi"');
  db.prepare('UPDATE sessions SET snapshot = ? WHERE id = ?').run(
    row.snapshot.replace('"prompt":"say hi"', '"prompt":"say ho"'),
    paused.sessionId,
  );
  db.close();
  const requestsBefore = server.requests.length;
  const resumed = await resumeStoredSession(paused.sessionId, {
    ...options,
    approvals: { call_h1: { approved: true } },
  });
  expect(resumed.success).toBe(false);
  expect(resumed.error).toContain(
    `the stored snapshot of session ${paused.sessionId} fails its integrity check`,
  );
  expect(server.requests.length).toBe(requestsBefore);
});
