import { createRunQueue } from '@agent/queue';
import { startRedisServer } from '@agent/testkit';
import { describe, expect, it } from 'vitest';
import { runClient } from './queue-fleet.js';
import { until, useQueueFleet } from './queue-harness.js';

const { redis: redisServer, fleet, jobsLeft, stopAll } = useQueueFleet();

describe('agent-server on a Redis queue', () => {
  it('survives a worker killed with SIGKILL mid-session: every client gets its report, turns re-run at most once', async () => {
    // Every session starts on the first worker; the second one starts before the kill.
    const { model, workers, baseUrl, name, spawnWorker } = await fleet(1, {
      workerArgs: ['--concurrency', '6'],
      holdFirstRunOfTurn: 2,
    });
    const clients = Array.from({ length: 6 }, (_, at) => runClient(baseUrl, `job-${at}`, at % 2 === 0));
    // Every session is past its first checkpoint, its second turn hanging at the model.
    await until(() => [...model.turnsRun.keys()].filter((key) => key.endsWith('#2')).length === 6);
    const survivor = await spawnWorker();
    workers[0]!.child.kill('SIGKILL');
    expect(await workers[0]!.exited).toBe(null);
    const outcomes = await Promise.all(clients);
    for (const outcome of outcomes) {
      expect(outcome, JSON.stringify(outcome)).toMatchObject({
        status: 200,
        success: true,
        report: `report of ${outcome.job}`,
      });
      // Turn 1 was checkpointed before the kill: never again. Turn 2, in flight at the kill, ran
      // once more on the survivor; turn 3 once.
      expect(model.turnsRun.get(`${outcome.job}#1`)).toBe(1);
      expect(model.turnsRun.get(`${outcome.job}#2`)).toBe(2);
      expect(model.turnsRun.get(`${outcome.job}#3`)).toBe(1);
    }
    // Each streaming client was told its session moved, and got one result.
    for (const outcome of outcomes.filter((o) => o.events.length > 0)) {
      expect(outcome.moved, outcome.job).toBe(true);
      expect(outcome.events.filter((event) => event === 'result')).toHaveLength(1);
    }
    expect(await jobsLeft(name)).toMatchObject({ waiting: 0, active: 0, delayed: 0, failed: 0 });
    // The survivor stops cleanly on SIGTERM.
    survivor.child.kill('SIGTERM');
    expect(await survivor.exited).toBe(0);
  }, 120_000);

  it('SIGTERM on a worker hands its sessions to another and exits 0', async () => {
    const { model, workers, baseUrl, name, spawnWorker } = await fleet(1, {
      workerArgs: ['--drain-seconds', '0'],
      holdFirstRunOfTurn: 2,
    });
    const clients = [runClient(baseUrl, 'job-1', true), runClient(baseUrl, 'job-2', false)];
    await until(() => model.turnsRun.has('job-1#2') && model.turnsRun.has('job-2#2'));
    workers[0]!.child.kill('SIGTERM');
    expect(await workers[0]!.exited).toBe(0);
    expect(workers[0]!.stderr()).toMatch(/SIGTERM: no new jobs/);
    await spawnWorker();
    const outcomes = await Promise.all(clients);
    expect(outcomes.map((outcome) => outcome.report)).toEqual(['report of job-1', 'report of job-2']);
    expect(outcomes[0]!.moved).toBe(true);
    // Turn 1 was checkpointed: it never ran again; turn 2, cut by the stop, ran once more.
    for (const job of ['job-1', 'job-2']) {
      expect(model.turnsRun.get(`${job}#1`)).toBe(1);
      expect(model.turnsRun.get(`${job}#2`)).toBe(2);
      expect(model.turnsRun.get(`${job}#3`)).toBe(1);
    }
    expect(await jobsLeft(name)).toMatchObject({ waiting: 0, active: 0, delayed: 0, failed: 0 });
  }, 120_000);

  it('answers 429 with Retry-After when the shared queue is full', async () => {
    const { baseUrl, spawnWorker, name } = await fleet(0, { faceArgs: ['--queue-max', '1'] });
    const first = runClient(baseUrl, 'job-1', false);
    // No worker yet: the first run waits in the queue, so the next one is refused.
    const probe = createRunQueue({ url: redisServer().url, name });
    while (((await probe.counts()).waiting ?? 0) < 1) await new Promise((resolve) => setTimeout(resolve, 25));
    await probe.close();
    const refused = await fetch(`${baseUrl}/echo/run`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'job-2' }),
    });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(JSON.stringify(await refused.json())).toMatch(/run queue is full: 1 runs wait for a worker/);
    await spawnWorker();
    expect(await first).toMatchObject({ status: 200, success: true, report: 'report of job-1' });
    expect(await jobsLeft(name)).toMatchObject({ waiting: 0, active: 0, delayed: 0, failed: 0 });
  }, 120_000);

  it('Redis restarted mid-load: no process crashes, every client gets its answer or a clean error, work resumes', async () => {
    const restartable = await startRedisServer({ appendOnly: true });
    try {
      const { model, workers, baseUrl, face } = await fleet(1, { url: restartable.url, delayMs: 500 });
      const clients = Array.from({ length: 4 }, (_, at) => runClient(baseUrl, `job-${at}`, at % 2 === 0));
      await until(() => [...model.turnsRun.keys()].filter((key) => key.endsWith('#2')).length === 4);
      await restartable.stop();
      await new Promise((resolve) => setTimeout(resolve, 1000));
      await restartable.restart();
      const outcomes = await Promise.all(clients);
      for (const outcome of outcomes) {
        // An answer, or a failed result (JSON, or the SSE result event): never a dropped connection.
        expect(outcome.status, JSON.stringify(outcome)).toBe(200);
        expect(typeof outcome.success, JSON.stringify(outcome)).toBe('boolean');
        if (outcome.success === true) expect(outcome.report).toBe(`report of ${outcome.job}`);
      }
      expect(face.child.exitCode).toBe(null);
      expect(workers[0]!.child.exitCode).toBe(null);
      // Work goes on after the restart.
      expect(await runClient(baseUrl, 'job-9', false)).toMatchObject({
        status: 200,
        success: true,
        report: 'report of job-9',
      });
    } finally {
      await stopAll();
      await restartable.close();
    }
  }, 120_000);
});
