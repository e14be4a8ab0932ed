import { readFileSync } from 'node:fs';
import type { SessionSnapshot } from '@agent/protocol';
import { afterEach, expect, test } from 'vitest';
import { resume, run } from '../../src/index.js';
import { DEPLOY_STEPS, deployAgent } from './deploy-agent.js';
import { agentOn, NONCE, STEPS, sent, serve, servers } from './five-turns.js';

// Every snapshot version this project ever wrote keeps loading: one fixture per version, taken
// after turn 2 of the five-turn session and kept as it was written.
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const fixture = (version: number, kind = '') =>
  JSON.parse(
    readFileSync(new URL(`./fixtures/snapshot-v${version}${kind}.json`, import.meta.url), 'utf8'),
  ) as SessionSnapshot;

test('a version 1 snapshot resumes and sends what the uninterrupted session sent after turn 2', async () => {
  const reference = await serve(STEPS);
  await run(agentOn(reference), 'Weather in Athens, Rome, Oslo and Lima?', { internal: { nonce: NONCE } });
  const snapshot = fixture(1);
  expect(snapshot.version).toBe(1);
  const server = await serve(STEPS.slice(2));
  const result = await resume(agentOn(server), snapshot);
  expect(result.success, result.error).toBe(true);
  expect(result.sessionId).toBe('fixture-session-v1');
  expect(server.requests.map(sent)).toEqual(reference.requests.slice(2).map(sent));
  // The accounting of turns 1 and 2 came with the snapshot.
  expect(result.accounting.filter((entry) => entry.type === 'llm')).toHaveLength(5);
});

test('a version 1 snapshot paused for approval resumes with the decision: the approved call runs once, the model sees what a live approval gives', async () => {
  const live = await serve(DEPLOY_STEPS);
  await run(deployAgent(live, []), 'Deploy it.', {
    internal: { nonce: NONCE },
    approver: () => ({ approved: true }),
  });
  const snapshot = fixture(1, '-paused');
  expect(snapshot.version).toBe(1);
  expect(snapshot.status).toBe('awaiting_approval');
  const ran: string[] = [];
  const server = await serve(DEPLOY_STEPS.slice(1));
  const result = await resume(deployAgent(server, ran), snapshot, {
    approvals: { call_d1: { approved: true } },
  });
  expect(result.success, result.error).toBe(true);
  expect(result.sessionId).toBe('fixture-paused-v1');
  expect(ran).toEqual(['prod']);
  expect(server.requests.map(sent)).toEqual(live.requests.slice(1).map(sent));
});

test('the version 1 paused fixture is bound to the arguments it paused with: edited, its approved call runs nothing', async () => {
  const snapshot = fixture(1, '-paused');
  snapshot.turnCalls![0]!.arguments = { env: 'prod', region: 'all' };
  const ran: string[] = [];
  const server = await serve(DEPLOY_STEPS.slice(1));
  await resume(deployAgent(server, ran), snapshot, { approvals: { call_d1: { approved: true } } });
  expect(ran).toEqual([]);
  const tool = server.requests[0]!.messages.filter((m) => m.role === 'tool').map((m) => m.content);
  expect(tool[0]).toContain('call call_d1 was not run: its arguments changed after approval');
});

test('a version 2 snapshot whose pending call has no argumentsHash is refused before any model call', async () => {
  const snapshot = { ...fixture(1, '-paused'), version: 2 };
  const server = await serve(DEPLOY_STEPS.slice(1));
  const result = await resume(deployAgent(server, []), snapshot, {
    approvals: { call_d1: { approved: true } },
  });
  expect(result.exitCode).toBe('EXIT-CONFIGURATION');
  expect(result.error).toContain('resumeFrom.pending: a pending call has no argumentsHash');
  expect(server.requests).toHaveLength(0);
});
