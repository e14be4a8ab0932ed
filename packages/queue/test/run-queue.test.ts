import type { AgentEvent } from '@agent/protocol';
import { startRedisServer } from '@agent/testkit';
import { afterEach, describe, expect, test } from 'vitest';
import {
  createRunQueue,
  openRunWorker,
  type QueueAgent,
  type RunQueue,
  type RunWorker,
} from '../src/index.js';
import {
  answer,
  freshQueueName,
  recordingAgent,
  sharedRedis,
  snapshotOf,
  withoutJournal,
} from './helpers.js';

const opened: { close?: () => Promise<void>; stop?: (ms?: number) => Promise<void> }[] = [];
afterEach(async () => {
  for (const thing of opened.splice(0).reverse()) await (thing.stop?.(0) ?? thing.close?.());
});

async function face(name: string, extra: { maxWaiting?: number } = {}): Promise<RunQueue> {
  const { url } = await sharedRedis();
  const queue = createRunQueue({ url, name, pollMs: 200, ...extra });
  opened.push(queue);
  return queue;
}

async function worker(
  name: string,
  extra: { concurrency?: number; providerCaps?: Record<string, number> } = {},
): Promise<RunWorker> {
  const { url } = await sharedRedis();
  const opened_ = await openRunWorker({ url, name, lockMs: 1000, ...extra });
  opened.push(opened_);
  return opened_;
}

/** The queue's counts once no job waits or runs (a client has its result a moment before its job completes). */
async function settled(queue: RunQueue): Promise<Record<string, number>> {
  for (;;) {
    const counts = await queue.counts();
    if ((counts.waiting ?? 0) + (counts.active ?? 0) + (counts.delayed ?? 0) === 0) return counts;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('run queue', () => {
  test("a streaming client gets the worker's events in order and the result once", async () => {
    const name = freshQueueName();
    const queue = await face(name);
    const w = await worker(name);
    const echo = recordingAgent(w.sessionStore);
    w.start({ get: (agent) => (agent === 'echo' ? { agent: echo.agent } : undefined) });
    const events: AgentEvent[] = [];
    const result = await queue.submit(
      { agent: 'echo', input: 'one two three' },
      { onEvent: (event) => events.push(event) },
    );
    expect(result.success).toBe(true);
    expect(result.finalReport?.content).toBe('echo: one two three');
    const outputs = events
      .filter((event) => event.type === 'output')
      .map((event) => (event as { text: string }).text);
    expect(outputs).toEqual(['one ', 'two ', 'three ', 'half-said']);
    expect(echo.calls).toEqual([{ kind: 'run', sessionId: result.sessionId }]);
    expect(await settled(queue)).toMatchObject({
      waiting: 0,
      active: 0,
      delayed: 0,
      failed: 0,
      completed: 0,
    });
  });

  test("the face's traceparent reaches the worker's run, so its spans continue the caller's trace", async () => {
    const name = freshQueueName();
    const queue = await face(name);
    const w = await worker(name);
    const echo = recordingAgent(w.sessionStore);
    w.start({ get: (agent) => (agent === 'echo' ? { agent: echo.agent } : undefined) });
    const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    const result = await queue.submit({ agent: 'echo', input: 'hi', traceparent }, {});
    expect(result.success).toBe(true);
    expect(echo.calls).toEqual([{ kind: 'run', sessionId: result.sessionId, traceparent }]);
  });

  test('a full queue refuses with a Retry-After before anything is enqueued', async () => {
    const name = freshQueueName();
    const queue = await face(name, { maxWaiting: 2 });
    expect(await queue.admission()).toBeUndefined();
    // No worker: the runs wait.
    const pending = [
      queue.submit({ agent: 'echo', input: 'a' }),
      queue.submit({ agent: 'echo', input: 'b' }),
    ];
    while (((await queue.counts()).waiting ?? 0) < 2) await new Promise((resolve) => setTimeout(resolve, 20));
    const refusal = await queue.admission();
    expect(refusal?.retryAfterSeconds).toBe(5);
    expect(refusal?.message).toMatch(/2 runs wait for a worker \(the limit is 2\)/);
    const w = await worker(name);
    const echo = recordingAgent(w.sessionStore);
    w.start({ get: () => ({ agent: echo.agent }) });
    const results = await Promise.all(pending);
    expect(results.map((result) => result.finalReport?.content)).toEqual(['echo: a', 'echo: b']);
  });

  test('a job naming an agent no worker serves fails once with a clear error', async () => {
    const name = freshQueueName();
    const queue = await face(name);
    const w = await worker(name);
    w.start({ get: () => undefined });
    const result = await queue.submit({ agent: 'nobody', input: 'hi' });
    expect(result.success).toBe(false);
    expect(result.exitCode).toBe('EXIT-CONFIGURATION');
    expect(result.error).toMatch(/serves no agent named "nobody"/);
    expect(await settled(queue)).toMatchObject({ waiting: 0, active: 0, delayed: 0, failed: 1 });
  });

  test('a stopping worker hands its session back; another resumes it and the client is told it moved', async () => {
    const name = freshQueueName();
    const queue = await face(name);
    const first = await worker(name);
    // A worker whose store keeps no journal (an older one): its session streams unheld.
    withoutJournal(first.sessionStore);
    const held = recordingAgent(first.sessionStore, { hold: true });
    first.start({ get: () => ({ agent: held.agent }) });
    const events: AgentEvent[] = [];
    const answer = queue.submit({ agent: 'echo', input: 'x y' }, { onEvent: (event) => events.push(event) });
    while (!events.some((event) => event.type === 'output' && event.text === 'half-said'))
      await new Promise((resolve) => setTimeout(resolve, 20));
    await first.stop(0);
    opened.splice(opened.indexOf(first), 1);
    const second = await worker(name);
    const resumed = recordingAgent(second.sessionStore);
    second.start({ get: () => ({ agent: resumed.agent }) });
    const result = await answer;
    expect(result.finalReport?.content).toBe('resumed after turn 1');
    expect(resumed.calls).toEqual([{ kind: 'resume', sessionId: result.sessionId }]);
    const retracted = events.find((event) => event.type === 'output_retracted');
    expect(retracted).toMatchObject({ characters: 'half-said'.length, slug: 'session_moved' });
    const moved = events.find((event) => event.type === 'status');
    expect(JSON.stringify(moved)).toMatch(/session moved to worker/);
    expect(await settled(queue)).toMatchObject({ waiting: 0, active: 0, delayed: 0, failed: 0 });
  });

  test('a provider cap holds across workers', async () => {
    const name = freshQueueName();
    const queue = await face(name);
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const workers = [
      await worker(name, { concurrency: 3, providerCaps: { openai: 2 } }),
      await worker(name, { concurrency: 3, providerCaps: { openai: 2 } }),
    ];
    const agents = workers.map((w) => recordingAgent(w.sessionStore, { gate }));
    for (const [at, w] of workers.entries()) {
      const served = agents[at] as ReturnType<typeof recordingAgent>;
      w.start({ get: () => ({ agent: served.agent, providers: ['openai'] }) });
    }
    const runs = Array.from({ length: 6 }, (_, at) => queue.submit({ agent: 'echo', input: `n${at}` }));
    while (agents.reduce((sum, a) => sum + a.calls.length, 0) < 2)
      await new Promise((resolve) => setTimeout(resolve, 20));
    // Give the other four every chance to start (they must not).
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(agents.reduce((sum, a) => sum + a.calls.length, 0)).toBe(2);
    release();
    const results = await Promise.all(runs);
    expect(results.every((result) => result.success)).toBe(true);
    expect(agents.reduce((sum, a) => sum + a.calls.length, 0)).toBe(6);
  });

  test("a provider cap covers an agent's fallback providers too: its sessions never overlap", async () => {
    const name = freshQueueName();
    const queue = await face(name);
    const w = await worker(name, { concurrency: 3, providerCaps: { anthropic: 1 } });
    let inFlight = 0;
    let most = 0;
    const agent: QueueAgent = {
      async run(_input, run) {
        inFlight += 1;
        most = Math.max(most, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 200));
        inFlight -= 1;
        return answer(run.sessionId, 'done');
      },
      resume: async (sessionId) => answer(sessionId, 'done'),
    };
    // Its first model is uncapped (openai); its fallback's provider (anthropic) has one slot.
    w.start({ get: () => ({ agent, providers: ['openai', 'anthropic'] }) });
    const results = await Promise.all(
      Array.from({ length: 3 }, (_, at) => queue.submit({ agent: 'echo', input: `n${at}` })),
    );
    expect(results.every((result) => result.success)).toBe(true);
    // Three slots on the worker, three runs ready: the fallback's cap ran them one at a time.
    expect(most).toBe(1);
  });

  test('a resume job continues a stored session: approvals for a paused one, none once it moved past the pause', async () => {
    const name = freshQueueName();
    const queue = await face(name);
    const w = await worker(name);
    const asked: { sessionId: string; approvals?: unknown }[] = [];
    const agent: QueueAgent = {
      run: async (_input, run) => answer(run.sessionId, 'not a resume'),
      async resume(sessionId, run) {
        asked.push({ sessionId, ...(run.approvals === undefined ? {} : { approvals: run.approvals }) });
        run.onEvent?.(
          { type: 'output', text: 'resumed' },
          { isMaster: true, isFinal: false, sessionId, agentPath: 'echo' },
        );
        return answer(sessionId, `resumed ${sessionId}`);
      },
    };
    w.start({ get: () => ({ agent }) });
    await w.sessionStore.save({ ...snapshotOf('paused-1', 1), status: 'awaiting_approval' });
    await w.sessionStore.save(snapshotOf('running-1', 2));
    const approvals = { call_1: { approved: true } } as const;
    const events: { sessionId: string }[] = [];
    const paused = await queue.submit(
      { agent: 'echo', input: '', resume: { sessionId: 'paused-1', approvals } },
      { onEvent: (_event, meta) => events.push({ sessionId: meta.sessionId }) },
    );
    const running = await queue.submit({
      agent: 'echo',
      input: '',
      resume: { sessionId: 'running-1', approvals },
    });
    expect([paused.finalReport?.content, running.finalReport?.content]).toEqual([
      'resumed paused-1',
      'resumed running-1',
    ]);
    expect(paused.sessionId).toBe('paused-1');
    expect(events).toEqual([{ sessionId: 'paused-1' }]);
    // The decisions answer a pause; a session already past it resumes from its checkpoint without them.
    expect(asked).toEqual([{ sessionId: 'paused-1', approvals }, { sessionId: 'running-1' }]);
    expect(await settled(queue)).toMatchObject({ waiting: 0, active: 0, delayed: 0, failed: 0 });
  });

  test('cancelSession from another face stops the session on its worker: a first run by its session id, a resume too', async () => {
    const name = freshQueueName();
    const starter = await face(name);
    const other = await face(name);
    const w = await worker(name);
    // Its text streams as it comes (no journal hold): 'half-said' shows the run is on its second turn.
    withoutJournal(w.sessionStore);
    const held = recordingAgent(w.sessionStore, { hold: true });
    let resumed = 0;
    const agent: QueueAgent = {
      run: held.agent.run,
      async resume(sessionId, run) {
        resumed += 1;
        await new Promise((resolve) => run.signal?.addEventListener('abort', resolve, { once: true }));
        return { ...answer(sessionId, 'aborted'), success: false, exitCode: 'EXIT-ABORTED' } as never;
      },
    };
    w.start({ get: () => ({ agent }) });
    const events: AgentEvent[] = [];
    const first = starter.submit(
      { agent: 'echo', input: 'long work' },
      { sessionId: 'task-7', onEvent: (event) => events.push(event) },
    );
    while (!events.some((event) => event.type === 'output' && event.text === 'half-said'))
      await new Promise((resolve) => setTimeout(resolve, 20));
    await other.cancelSession('task-7');
    const result = await first;
    expect(result).toMatchObject({ sessionId: 'task-7', exitCode: 'EXIT-ABORTED', success: false });
    expect(held.calls).toEqual([{ kind: 'run', sessionId: 'task-7' }]);
    // A resume runs as a job of its own id; the session's id still reaches it.
    const resume = starter.submit({ agent: 'echo', input: '', resume: { sessionId: 'task-7' } });
    while (resumed === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    await other.cancelSession('task-7');
    expect(await resume).toMatchObject({ sessionId: 'task-7', exitCode: 'EXIT-ABORTED' });
    expect(await settled(starter)).toMatchObject({ waiting: 0, active: 0, delayed: 0, failed: 0 });
  });

  test('cancelSession removes a waiting job: it never runs', async () => {
    const name = freshQueueName();
    const queue = await face(name);
    const waiting = queue.submit({ agent: 'echo', input: 'never' }, { sessionId: 'task-8' });
    // No worker yet: the job waits until it is removed.
    while ((await queue.counts()).waiting !== 1) await new Promise((resolve) => setTimeout(resolve, 20));
    await (await face(name)).cancelSession('task-8');
    const result = await waiting;
    expect(result).toMatchObject({ sessionId: 'task-8', success: false });
    expect(result.error).toMatch(/left the queue/);
    const w = await worker(name);
    const echo = recordingAgent(w.sessionStore);
    w.start({ get: () => ({ agent: echo.agent }) });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(echo.calls).toEqual([]);
  });

  test('a job for an agent whose file did not load fails once with the load error, the Redis password removed', async () => {
    const secured = await startRedisServer({ password: 'queue-secret-pw' });
    const name = freshQueueName();
    const queue = createRunQueue({ url: secured.url, name, pollMs: 200 });
    const logged: string[] = [];
    const w = await openRunWorker({
      url: secured.url,
      name,
      lockMs: 1000,
      onLog: (line) => logged.push(line),
    });
    try {
      // A load error that quotes the worker's Redis URL (as a store's connection error would).
      w.start({ get: () => undefined, loadFailures: [`/srv/echo.ai: cannot open ${secured.url}`] });
      const result = await queue.submit({ agent: 'echo', input: 'hi' });
      expect(result.success).toBe(false);
      expect(result.exitCode).toBe('EXIT-CONFIGURATION');
      expect(result.error).toContain(
        'this worker cannot run agent "echo": agent files did not load here: /srv/echo.ai',
      );
      expect(result.error).toContain('[redacted]');
      expect(`${result.error} ${logged.join(' ')}`).not.toContain('queue-secret-pw');
      expect(await settled(queue)).toMatchObject({ waiting: 0, active: 0, delayed: 0, failed: 1 });
    } finally {
      await w.stop(0);
      await queue.close();
      await secured.close();
    }
  });
});
