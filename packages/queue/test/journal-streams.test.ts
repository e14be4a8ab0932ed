import type { AgentEvent, AgentEventMeta, AgentResult, SessionStore } from '@agent/protocol';
import { afterEach, describe, expect, test } from 'vitest';
import {
  createRunQueue,
  openRunWorker,
  type QueueAgent,
  type QueueRunOptions,
  type RunQueue,
  type RunWorker,
} from '../src/index.js';
import { answer, freshQueueName, sharedRedis, snapshotOf, withJournal } from './helpers.js';

const opened: { close?: () => Promise<void>; stop?: (ms?: number) => Promise<void> }[] = [];
afterEach(async () => {
  for (const thing of opened.splice(0).reverse()) await (thing.stop?.(0) ?? thing.close?.());
});

async function face(name: string): Promise<RunQueue> {
  const queue = createRunQueue({ url: (await sharedRedis()).url, name, pollMs: 200 });
  opened.push(queue);
  return queue;
}

async function worker(name: string): Promise<RunWorker> {
  const started = await openRunWorker({ url: (await sharedRedis()).url, name, lockMs: 1000 });
  opened.push(started);
  return started;
}

const REPORT = ['Hel', 'lo ', 'world'];

/**
 * A stand-in for a journaling session (what core does with `onJournal`): it checkpoints turn 0,
 * streams its report in turn 1, journals the answer and says so (`answer_journaled`), then
 * answers. `dies` makes it wait for its worker to stop before or after journaling. A resumed
 * session replays the journaled answer (source `journal`) or, with nothing journaled, streams
 * it again from the model.
 */
function journalingAgent(store: SessionStore, journaled: Set<string>, dies?: 'before' | 'after') {
  const emit = (
    run: QueueRunOptions,
    sessionId: string,
    event: AgentEvent,
    source?: AgentEventMeta['source'],
  ) =>
    run.onEvent?.(event, {
      isMaster: true,
      isFinal: false,
      sessionId,
      agentPath: 'echo',
      ...(source === undefined ? {} : { source }),
    });
  const turn = (run: QueueRunOptions, sessionId: string) =>
    emit(run, sessionId, { type: 'turn_started', turn: 1, attempt: 1, isRetry: false, isFinalTurn: true });
  const stopped = async (run: QueueRunOptions, sessionId: string): Promise<AgentResult> => {
    // A marker that is never held: once the face has it, any text before it would have arrived too.
    emit(run, sessionId, { type: 'thinking', text: `waiting (${dies})` }, 'stream');
    await new Promise((resolve) => run.signal?.addEventListener('abort', resolve, { once: true }));
    return {
      ...answer(sessionId, ''),
      success: false,
      exitCode: 'EXIT-ABORTED',
      error: 'aborted',
    } as AgentResult;
  };
  const streamAndJournal = async (
    run: QueueRunOptions,
    sessionId: string,
  ): Promise<AgentResult | undefined> => {
    for (const text of REPORT) emit(run, sessionId, { type: 'output', text }, 'stream');
    if (dies === 'before') return stopped(run, sessionId);
    await store.appendJournal?.({ kind: 'answer', sessionId, turn: 1 } as never);
    emit(run, sessionId, { type: 'answer_journaled', turn: 1 });
    if (dies === 'after') return stopped(run, sessionId);
    return undefined;
  };
  const agent: QueueAgent = {
    async run(_input, run) {
      await store.save(snapshotOf(run.sessionId, 0));
      turn(run, run.sessionId);
      return (await streamAndJournal(run, run.sessionId)) ?? answer(run.sessionId, REPORT.join(''));
    },
    async resume(sessionId, run) {
      turn(run, sessionId);
      if (journaled.has(sessionId))
        emit(run, sessionId, { type: 'output', text: REPORT.join('') }, 'journal');
      else {
        dies = undefined;
        await streamAndJournal(run, sessionId);
      }
      return answer(sessionId, REPORT.join(''));
    },
  };
  return agent;
}

/** Runs one session on a worker that stops (dies) at `dies`; a second worker resumes it. */
async function movedSession(dies: 'before' | 'after') {
  const name = freshQueueName();
  const queue = await face(name);
  const first = await worker(name);
  const journaled = withJournal(first.sessionStore);
  first.start({ get: () => ({ agent: journalingAgent(first.sessionStore, journaled, dies) }) });
  const events: AgentEvent[] = [];
  const result = queue.submit({ agent: 'echo', input: 'hi' }, { onEvent: (event) => events.push(event) });
  while (!events.some((event) => event.type === 'thinking'))
    await new Promise((resolve) => setTimeout(resolve, 20));
  const beforeMove = events.filter((event) => event.type === 'output').map((event) => event.text);
  await first.stop(0);
  opened.splice(opened.indexOf(first), 1);
  const second = await worker(name);
  withJournal(second.sessionStore, journaled);
  second.start({ get: () => ({ agent: journalingAgent(second.sessionStore, journaled) }) });
  const outcome = await result;
  const text = events.filter((event) => event.type === 'output').map((event) => event.text);
  return { outcome, events, text, beforeMove };
}

describe('streams that survive a worker death (a session that journals its turns)', () => {
  test('report text is held until its answer is journaled: a worker dying before that costs the client nothing', async () => {
    const { outcome, events, text, beforeMove } = await movedSession('before');
    expect(outcome.success).toBe(true);
    // The dead worker streamed three pieces; none reached the client, so none is withdrawn.
    expect(beforeMove).toEqual([]);
    expect(events.some((event) => event.type === 'output_retracted')).toBe(false);
    expect(JSON.stringify(events)).toMatch(/session moved to worker/);
    expect(text.join('')).toBe('Hello world');
  });

  test('text released before the worker died is not sent again by the journal replay', async () => {
    const { outcome, events, text, beforeMove } = await movedSession('after');
    expect(outcome.success).toBe(true);
    expect(beforeMove).toEqual(REPORT);
    expect(events.some((event) => event.type === 'output_retracted')).toBe(false);
    expect(text.join('')).toBe('Hello world');
  });
});

describe('the cost of holding: the first report text reaches the client when the answer is complete', () => {
  /** A session streaming `pieces` report pieces `gapMs` apart; the time its first piece takes to reach the client. */
  async function firstTextDelay(journal: boolean, pieces: number, gapMs: number) {
    const name = freshQueueName();
    const queue = await face(name);
    const w = await worker(name);
    if (journal) withJournal(w.sessionStore);
    let firstEmitted = 0;
    const agent: QueueAgent = {
      async run(_input, run) {
        const meta: AgentEventMeta = {
          isMaster: true,
          isFinal: false,
          sessionId: run.sessionId,
          agentPath: 'echo',
        };
        run.onEvent?.({ type: 'turn_started', turn: 1, attempt: 1, isRetry: false, isFinalTurn: true }, meta);
        for (let at = 0; at < pieces; at++) {
          if (at === 0) firstEmitted = performance.now();
          run.onEvent?.({ type: 'output', text: `t${at} ` }, { ...meta, source: 'stream' });
          await new Promise((resolve) => setTimeout(resolve, gapMs));
        }
        if (journal) run.onEvent?.({ type: 'answer_journaled', turn: 1 }, meta);
        return answer(run.sessionId, 'done');
      },
      resume: () => Promise.reject(new Error('not resumed')),
    };
    w.start({ get: () => ({ agent }) });
    let firstSeen = 0;
    await queue.submit(
      { agent: 'echo', input: 'hi' },
      {
        onEvent: (event) => {
          if (event.type === 'output' && firstSeen === 0) firstSeen = performance.now();
        },
      },
    );
    return firstSeen - firstEmitted;
  }

  test('a 500 ms report: at once without a journal, about 500 ms later with one', async () => {
    const streamed = await firstTextDelay(false, 20, 25);
    const held = await firstTextDelay(true, 20, 25);
    // Generous bounds (a shared machine): the held text waits for the whole answer, the other does not.
    expect(streamed).toBeLessThan(300);
    expect(held).toBeGreaterThanOrEqual(450);
    expect(held - streamed).toBeGreaterThanOrEqual(400);
  });
});
