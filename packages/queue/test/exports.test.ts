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
