import { createHash } from 'node:crypto';
import type { SessionSnapshot } from '@agent/protocol';
import { afterEach, expect, test } from 'vitest';
import { resume, run } from '../../src/index.js';
import { DEPLOY_STEPS, deployAgent } from './deploy-agent.js';
import { NONCE, serve, servers } from './five-turns.js';

// Issue 37: a decision is bound to the call's arguments as they were shown for approval. A
// snapshot or a request that changes them after the approval runs nothing.
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** SHA-256 over the RFC 8785 form of `{"env":"prod"}`: computed here, not by the code under test. */
const PROD_HASH = `sha256:${createHash('sha256').update('{"env":"prod"}').digest('hex')}`;

async function pausedDeploy(): Promise<SessionSnapshot> {
  const first = await serve(DEPLOY_STEPS.slice(0, 1));
  const paused = await run(deployAgent(first, []), 'Deploy it.', { internal: { nonce: NONCE } });
  expect(paused.exitCode).toBe('EXIT-AWAITING-APPROVAL');
  return structuredClone((paused.success ? undefined : paused.snapshot)!);
}

const toolTexts = (messages: readonly { role: string; content: string }[]) =>
  messages.filter((m) => m.role === 'tool').map((m) => m.content);

test('a pending call carries the hash of its arguments (canonical JSON, SHA-256)', async () => {
  const snapshot = await pausedDeploy();
  expect(snapshot.pending).toEqual([
    { callId: 'call_d1', tool: 'deploy', arguments: { env: 'prod' }, argumentsHash: PROD_HASH },
  ]);
});

test('a snapshot whose call arguments were changed after the pause: the approved call runs nothing', async () => {
  const snapshot = await pausedDeploy();
  const call = snapshot.turnCalls![0]!;
  call.arguments = { env: 'prod', region: 'all' };
  call.rawArguments = '{"env":"prod","region":"all"}';
  const ran: string[] = [];
  const second = await serve(DEPLOY_STEPS.slice(1));
  const result = await resume(deployAgent(second, ran), snapshot, {
    approvals: { call_d1: { approved: true } },
  });
  expect(ran).toEqual([]);
  const texts = toolTexts(second.requests[0]!.messages);
  expect(texts).toHaveLength(1);
  expect(texts[0]).toContain('call_d1 was not run: its arguments changed after approval');
  expect(texts[0]).toContain(`approved ${PROD_HASH}`);
  expect(result.accounting.find((e) => e.type === 'tool' && e.command === 'deploy')).toMatchObject({
    status: 'failed',
  });
});

test('a snapshot edited so the rule no longer picks the call still runs nothing without a matching decision', async () => {
  const snapshot = await pausedDeploy();
  const call = snapshot.turnCalls![0]!;
  call.arguments = { env: 'prod-all' };
  call.rawArguments = '{"env":"prod-all"}';
  const ran: string[] = [];
  const second = await serve(DEPLOY_STEPS.slice(1));
  await resume(deployAgent(second, ran), snapshot, { approvals: { call_d1: { approved: true } } });
  expect(ran).toEqual([]);
  expect(toolTexts(second.requests[0]!.messages)[0]).toContain('its arguments changed after approval');
});

test('a decision naming another hash than the pending call shows runs nothing; the shown hash runs the call once', async () => {
  const snapshot = await pausedDeploy();
  const ran: string[] = [];
  const other = `sha256:${createHash('sha256').update('{"env":"staging"}').digest('hex')}`;
  const second = await serve(DEPLOY_STEPS.slice(1));
  await resume(deployAgent(second, ran), snapshot, {
    approvals: { call_d1: { approved: true, argumentsHash: other } },
  });
  expect(ran).toEqual([]);
  expect(toolTexts(second.requests[0]!.messages)[0]).toContain(
    `call_d1 was not run: its arguments changed after approval (approved ${other}, the call has ${PROD_HASH})`,
  );

  const third = await serve(DEPLOY_STEPS.slice(1));
  const ok = await resume(deployAgent(third, ran), snapshot, {
    approvals: { call_d1: { approved: true, argumentsHash: PROD_HASH } },
  });
  expect(ok.success, ok.error).toBe(true);
  expect(ran).toEqual(['prod']);
});
