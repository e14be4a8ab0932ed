import { AgentError } from '@agent/protocol';
import { Redis } from 'ioredis';
import { expect, test } from 'vitest';
import { queueKeys } from '../src/job.js';
import { JobStreamWriter } from '../src/job-stream.js';
import { freshQueueName, sharedRedis } from './helpers.js';

test('a write Redis refuses makes flush reject with a QueueError (code queue) that says so', async () => {
  const redis = new Redis((await sharedRedis()).url, { lazyConnect: true, maxRetriesPerRequest: 0 });
  await redis.connect();
  const keys = queueKeys(freshQueueName());
  const writer = new JobStreamWriter(redis, keys, 'job-1', 1, 60);
  writer.write({ kind: 'moved', worker: 'w1', fromTurn: 0 });
  await writer.flush();
  expect(await redis.xlen(keys.events('job-1'))).toBe(1);
  await redis.quit();
  writer.write({ kind: 'moved', worker: 'w2', fromTurn: 1 });
  const failed = await writer.flush().catch((error: unknown) => error);
  expect(AgentError.is(failed, 'queue')).toBe(true);
  expect((failed as Error).message).toMatch(/^writing the job's events failed: .*Connection is closed/);
});
