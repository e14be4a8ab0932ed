import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentError } from '@agent/protocol';
import { type RedisServer, startRedisServer } from '@agent/testkit';
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
