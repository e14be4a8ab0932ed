import { AgentError } from '@agent/protocol';
import { Redis } from 'ioredis';
import { expect, test } from 'vitest';
import { queueKeys } from '../src/job.js';
import { JobStreamWriter } from '../src/job-stream.js';
import { streamField } from '../src/stream-fence.js';
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

test('a burst of entries lands whole and in order, with fewer wake-up notices than entries', async () => {
  const url = (await sharedRedis()).url;
  const redis = new Redis(url);
  const subscriber = new Redis(url);
  const keys = queueKeys(freshQueueName());
  const notices: string[] = [];
  subscriber.on('message', (_channel: string, seq: string) => notices.push(seq));
  await subscriber.subscribe(keys.notify('job-1'));
  try {
    const writer = new JobStreamWriter(redis, keys, 'job-1', 2, 60);
    // As a streamed report does: entries written far faster than Redis answers.
    for (let turn = 1; turn <= 200; turn++)
      writer.write({ kind: 'moved', worker: `w${turn}`, fromTurn: turn });
    await writer.flush();
    const rows = await redis.xrange(keys.events('job-1'), '-', '+');
    expect(rows.map(([, fields]) => JSON.parse(streamField(fields, 'e') as string).fromTurn)).toEqual(
      Array.from({ length: 200 }, (_, i) => i + 1),
    );
    expect(rows.map(([, fields]) => [streamField(fields, 'a'), streamField(fields, 's')])).toEqual(
      Array.from({ length: 200 }, (_, i) => ['2', String(i + 1)]),
    );
    expect(new Set(rows.map(([, fields]) => streamField(fields, 'w'))).size).toBe(1);
    expect(await redis.ttl(keys.events('job-1'))).toBeGreaterThan(0);
    await expect.poll(() => notices.at(-1)).toBe('200');
    expect(notices.length).toBeLessThan(200);
    // An entry after a quiet moment goes out on its own and is announced.
    writer.write({ kind: 'moved', worker: 'late', fromTurn: 201 });
    await writer.flush();
    expect(await redis.xlen(keys.events('job-1'))).toBe(201);
    await expect.poll(() => notices.at(-1)).toBe('201');
  } finally {
    subscriber.disconnect();
    redis.disconnect();
  }
});
