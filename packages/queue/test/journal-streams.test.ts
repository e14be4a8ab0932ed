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
import { answer, freshQueueName, sharedRedis, snapshotOf, withJournal, withoutJournal } from './helpers.js';

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
  /**
   * A session that streams its first report piece, then waits (at most `waitMs`) for the client
   * to see it before it writes the rest: whether the client saw text while the answer was still
   * being written. Ordering, not timing: the figures are in docs/sessions.md.
   */
  async function seenWhileStreaming(journal: boolean, waitMs: number): Promise<boolean> {
    const name = freshQueueName();
    const queue = await face(name);
    const w = await worker(name);
    if (journal) withJournal(w.sessionStore);
    else withoutJournal(w.sessionStore);
    let seen: () => void = () => {};
    const firstSeen = new Promise<void>((resolve) => {
      seen = resolve;
    });
    let early = false;
    const agent: QueueAgent = {
      async run(_input, run) {
        const meta: AgentEventMeta = {
          isMaster: true,
          isFinal: false,
          sessionId: run.sessionId,
          agentPath: 'echo',
        };
        run.onEvent?.({ type: 'turn_started', turn: 1, attempt: 1, isRetry: false, isFinalTurn: true }, meta);
        run.onEvent?.({ type: 'output', text: 't0 ' }, { ...meta, source: 'stream' });
        early = await Promise.race([
          firstSeen.then(() => true),
          new Promise<boolean>((resolve) => setTimeout(() => resolve(false), waitMs)),
        ]);
        run.onEvent?.({ type: 'output', text: 't1' }, { ...meta, source: 'stream' });
        if (journal) run.onEvent?.({ type: 'answer_journaled', turn: 1 }, meta);
        return answer(run.sessionId, 'done');
      },
      resume: () => Promise.reject(new Error('not resumed')),
    };
    w.start({ get: () => ({ agent }) });
    const texts: string[] = [];
    await queue.submit(
      { agent: 'echo', input: 'hi' },
      {
        onEvent: (event) => {
          if (event.type !== 'output') return;
          texts.push(event.text);
          seen();
        },
      },
    );
    expect(texts.join('')).toBe('t0 t1');
    return early;
  }

  test('without a journal the client sees the report as it streams; with one, only once the answer is journaled', async () => {
    // Without a journal the wait ends as soon as the client has the text (10 s is only a cap).
    expect(await seenWhileStreaming(false, 10_000)).toBe(true);
    expect(await seenWhileStreaming(true, 1_000)).toBe(false);
  });
});
