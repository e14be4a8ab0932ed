import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  finalReport,
  type ModelServer,
  type RedisServer,
  startModelServer,
  startRedisServer,
  toolCall,
} from '@agent/testkit';
import { afterEach, expect, test } from 'vitest';
import { createAgentRunner, resumeStoredSession } from '../../src/index.js';
import { agentFile, isolated, localConfig, tempTree } from '../helpers/temp-tree.js';

// Issue 16, "a store that is down": a runner whose session store cannot be reached says so,
// naming the store (a Redis password never shown), and loses nothing: a real redis-server with
// an append-only file is stopped while a session waits for approval, then restarted on its port,
// and the session resumes from the snapshot it had. A SQLite file that is not a database is
// named in the error and left as it was.
const PASSWORD = 'pw-s3cret';
const servers: ModelServer[] = [];
const redises: RedisServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
  await Promise.all(redises.splice(0).map((redis) => redis.close()));
});

const callHelper = () => toolCall('agent__helper', { prompt: 'say hi' }, { id: 'call_h1' });

async function tree(sessions: object) {
  const server = await startModelServer({ steps: [] });
  servers.push(server);
  const root = tempTree({
    'agent.json': localConfig({ sessions }, `${server.url}/v1`),
    'main.ai': agentFile('models: [local/m]\nagents: [helper.ai]\napproval:\n  tools: [agent__helper]'),
    'helper.ai': agentFile('models: [local/m]\ndescription: Says hi'),
  });
  return { server, root, options: isolated(root, { env: { XDG_STATE_HOME: join(root, 'state') } }) };
}

test('a Redis store that is down is named (password redacted) by resume and by a run that pauses; restarted with its data, the session resumes', async () => {
  const redis = await startRedisServer({ appendOnly: true, password: PASSWORD });
  redises.push(redis);
  const { server, options } = await tree({ store: 'redis', url: redis.url });
  const shown = `session store redis://:[redacted]@127.0.0.1:${redis.port}`;

  server.push(callHelper());
  const runner = await createAgentRunner('main.ai', options);
  const paused = await runner.run('Greet me.', { durable: true });
  expect(paused.exitCode).toBe('EXIT-AWAITING-APPROVAL');
  const stored = (await runner.storedSession(paused.sessionId))?.snapshot;
  expect(stored?.status).toBe('awaiting_approval');

  await redis.stop();
  // The runner that kept its connection: reading and resuming fail, naming the store.
  await expect(runner.storedSession(paused.sessionId)).rejects.toThrow(shown);
  const refused = await runner.resume(paused.sessionId, { approvals: { call_h1: { approved: true } } });
  expect(refused.success).toBe(false);
  expect(refused.error).toContain(shown);
  // A run that pauses while the store is down says its snapshot could not be stored.
  server.push(callHelper());
  const unstored = await runner.run('Greet me again.');
  expect(unstored.exitCode).toBe('EXIT-AWAITING-APPROVAL');
  expect(unstored.error).toContain(
    `storing its snapshot failed: ${shown}: saving session ${unstored.sessionId}`,
  );
  await runner.close();
  // From a fresh process: the store cannot be opened.
  const fresh = await resumeStoredSession(paused.sessionId, {
    ...options,
    approvals: { call_h1: { approved: true } },
  });
  expect(fresh.success).toBe(false);
  expect(fresh.error).toContain(`${shown}: cannot connect`);
  for (const result of [refused, unstored, fresh]) expect(JSON.stringify(result)).not.toContain(PASSWORD);
  expect(server.requests).toHaveLength(2);

  // Back on its port with its append-only file: the snapshot is the one stored, and it resumes.
  await redis.restart();
  const again = await createAgentRunner('main.ai', options);
  try {
    expect((await again.storedSession(paused.sessionId))?.snapshot).toEqual(stored);
  } finally {
    await again.close();
  }
  server.push(finalReport('hi', { format: 'sub-agent' }), finalReport('The helper said hi.'));
  const resumed = await resumeStoredSession(paused.sessionId, {
    ...options,
    approvals: { call_h1: { approved: true } },
  });
  expect(resumed.success, resumed.error).toBe(true);
  expect(resumed.finalReport?.content).toBe('The helper said hi.');
  expect(server.requests).toHaveLength(4);
});

test('a SQLite store file that is not a database is named in the error and left untouched', async () => {
  const { server, root, options } = await tree({ store: 'sqlite', path: 'state/sessions.sqlite' });
  const path = join(root, 'state', 'sessions.sqlite');
  mkdirSync(join(root, 'state'), { recursive: true });
  const garbage = 'this is not a SQLite database\n'.repeat(200);
  writeFileSync(path, garbage);

  server.push(callHelper());
  const runner = await createAgentRunner('main.ai', options);
  try {
    const paused = await runner.run('Greet me.', { durable: true });
    expect(paused.exitCode).toBe('EXIT-AWAITING-APPROVAL');
    expect(paused.error).toContain(
      `storing its snapshot failed: cannot open the session store ${path}: file is not a database`,
    );
    // The run warned that it keeps no checkpoints, naming the store.
    expect(paused.logs?.some((l) => l.message.includes(`session store ${path}`))).toBe(true);
  } finally {
    await runner.close();
  }
  const resumed = await resumeStoredSession('any-session', options);
  expect(resumed.success).toBe(false);
  expect(resumed.error).toContain(`cannot open the session store ${path}: file is not a database`);
  expect(readFileSync(path, 'utf8')).toBe(garbage);
});

test('a durable run opens its store with its first checkpoint: a store that cannot open is said once, and the run answers', async () => {
  const { server, root, options } = await tree({ store: 'sqlite', path: 'state/sessions.sqlite' });
  const path = join(root, 'state', 'sessions.sqlite');
  mkdirSync(join(root, 'state'), { recursive: true });
  writeFileSync(path, 'not a database\n'.repeat(200));
  server.push(toolCall('agent__helper', { prompt: 'say hi' }, { id: 'call_h2' }));
  server.push(finalReport('hi', { format: 'sub-agent' }), finalReport('The helper said hi.'));
  const runner = await createAgentRunner('main.ai', {
    ...options,
    approver: async () => ({ approved: true }),
  });
  try {
    const result = await runner.run('Greet me.', { durable: true });
    expect(result.success, result.error).toBe(true);
    const warnings = (result.logs ?? []).filter((l) => l.remoteIdentifier === 'agent:checkpoint');
    expect(warnings.map((l) => l.message)).toEqual([
      `the session store is unavailable, this run keeps no checkpoints: cannot open the session store ${path}: file is not a database`,
    ]);
    // Said after the first turn's request, not before it: the request did not wait for the store.
    const firstRequest = (result.logs ?? []).findIndex((l) => l.direction === 'request' && l.type === 'llm');
    expect(firstRequest).toBeGreaterThanOrEqual(0);
    expect((result.logs ?? []).indexOf(warnings[0]!)).toBeGreaterThan(firstRequest);
  } finally {
    await runner.close();
  }
});
