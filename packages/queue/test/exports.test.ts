import { expect, test } from 'vitest';

// The public surface, pinned (types are not listed: they vanish at run time).
test('@agent/queue exports exactly these values', async () => {
  expect(Object.keys(await import('@agent/queue')).sort()).toEqual([
    'DEFAULT_MAX_WAITING',
    'DEFAULT_QUEUE_NAME',
    'QUEUE_ERROR_CODE',
    'QueueError',
    'WorkerSessionStore',
    'checkQueueUrl',
    'createRunQueue',
    'openQueueSessionStore',
    'openRunWorker',
    'parseProviderCap',
  ]);
});

test('@agent/queue/options exports exactly these values, the same functions as the main entry', async () => {
  const options = await import('@agent/queue/options');
  expect(Object.keys(options).sort()).toEqual(['checkQueueUrl', 'parseProviderCap']);
  const main = await import('@agent/queue');
  expect(options.checkQueueUrl).toBe(main.checkQueueUrl);
  expect(options.parseProviderCap).toBe(main.parseProviderCap);
});
