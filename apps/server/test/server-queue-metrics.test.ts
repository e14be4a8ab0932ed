import { describe, expect, it } from 'vitest';
import { sample } from './helpers.js';
import { runClient } from './queue-fleet.js';
import { until, useQueueFleet } from './queue-harness.js';

// `agent-server --queue ... --metrics`: the shared queue's jobs by state, read from Redis at scrape.
const { fleet } = useQueueFleet();

describe('agent-server --queue with --metrics', () => {
  it('agent_run_queue_jobs shows a job waiting for a worker, then none once a worker ran it', async () => {
    // No worker yet: the run waits on the queue.
    const { face, spawnWorker } = await fleet(0, { faceArgs: ['--metrics', '0'], headends: 2, delayMs: 50 });
    const metricsUrl = face.urls.metrics!;
    const jobs = async (state: string) =>
      sample(await (await fetch(metricsUrl)).text(), 'agent_run_queue_jobs', { state });
    const client = runClient(face.urls.rest!, 'job-1', false);
    await until(async () => (await jobs('waiting')) === 1);
    expect(await jobs('active')).toBe(0);

    await spawnWorker();
    const outcome = await client;
    expect(outcome.status).toBe(200);
    expect(outcome.success).toBe(true);
    // Done jobs are removed from the queue: nothing waits or runs any more.
    await until(async () => (await jobs('waiting')) === 0 && (await jobs('active')) === 0);
  });
});
