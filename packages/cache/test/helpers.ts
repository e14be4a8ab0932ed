import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentError, type SessionSnapshot } from '@agent/protocol';
import { type RedisCluster, type RedisServer, startRedisCluster, startRedisServer } from '@agent/testkit';
import { afterAll, afterEach, expect } from 'vitest';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A temporary directory, removed after the test. */
export function tempDir(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'cache-test-')));
  dirs.push(dir);
  return dir;
}

let redis: Promise<RedisServer> | undefined;
afterAll(async () => {
  if (redis !== undefined) await (await redis).close();
});

/** One real redis-server for the test file (started on first use, stopped after the file). */
export function sharedRedis(): Promise<RedisServer> {
  redis ??= startRedisServer();
  return redis;
}

let cluster: Promise<RedisCluster> | undefined;
afterAll(async () => {
  if (cluster !== undefined) await (await cluster).close();
});

/** One real Redis Cluster (3 masters, a replica each) for the test file, started on first use. */
export function sharedCluster(): Promise<RedisCluster> {
  cluster ??= startRedisCluster();
  return cluster;
}

/** A clock a test moves by hand. */
export function fakeClock(start = 1_700_000_000_000): { now: () => number; advance: (ms: number) => void } {
  let time = start;
  return { now: () => time, advance: (ms) => (time += ms) };
}

/** What a read that must be refused does: it rejects with an `AgentError` (returned), never resolves. */
export async function refusalOf(read: Promise<unknown>): Promise<AgentError> {
  const outcome = await read.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  expect('value' in outcome ? outcome.value : undefined).toBeUndefined();
  expect(AgentError.is((outcome as { error: unknown }).error)).toBe(true);
  return (outcome as { error: AgentError }).error;
}

/**
 * A version 2 snapshot of `sessionId` at turn 3, paused on a `deploy` call; `fields` replace any
 * of its fields (another turn, version or status).
 */
export function testSnapshot(sessionId: string, fields: Record<string, unknown> = {}): SessionSnapshot {
  return {
    version: 2,
    sessionId,
    agent: 'main',
    settingsHash: 'sha256:0123456789abcdef',
    status: 'awaiting_approval',
    takenAt: 1,
    turn: 3,
    nonce: 'abcd1234',
    conversation: [{ role: 'user', content: 'Deploy it.' }],
    loop: { finalReportFailedEver: false, finalReportAttempts: 0, taskStatusOnlyTurns: 0 },
    droppedTargets: [null],
    tokenCorrection: 1,
    accounting: [],
    opTree: { id: 'op-0', kind: 'session', label: 'main', startedAt: 1, status: 'running', children: [] },
    turnCalls: [{ id: 'call_d1', name: 'deploy', arguments: { env: 'prod' } }],
    pending: [{ callId: 'call_d1', tool: 'deploy', arguments: { env: 'prod' } }],
    ...fields,
  } as unknown as SessionSnapshot;
}
