import { Redis } from 'ioredis';
import { expect, test } from 'vitest';
import { JobNotifier } from '../src/notifier.js';
import { sharedRedis } from './helpers.js';

test('a SUBSCRIBE refused at first is tried again, and the follower is woken once it is in', async () => {
  const url = (await sharedRedis()).url;
  // Still connecting and no offline queue: ioredis refuses the first SUBSCRIBE, as its cluster
  // subscriber does when a new connection's ready check fails after a failover.
  const subscriber = new Redis(url, { lazyConnect: true, enableOfflineQueue: false });
  subscriber.on('error', () => undefined);
  const publisher = new Redis(url);
  try {
    const notifier = new JobNotifier(subscriber);
    await notifier.watch('job-notice');
    const woken = notifier.next('job-notice', new AbortController().signal);
    expect(await publisher.publish('job-notice', '1')).toBe(1);
    await woken;
  } finally {
    subscriber.disconnect();
    publisher.disconnect();
  }
});
