import type { AgentEvent, AgentEventMeta, AgentResult } from '@agent/protocol';
import { Redis } from 'ioredis';
import { expect, test } from 'vitest';
import { EventRelay } from '../src/event-relay.js';
import { type JobStreamEntry, queueKeys } from '../src/job.js';
import { followJob, JobStreamWriter } from '../src/job-stream.js';
import { answer, freshQueueName, sharedRedis } from './helpers.js';

const META: AgentEventMeta = { isMaster: true, isFinal: false, sessionId: 'job-1', agentPath: 'echo' };
const event = (e: AgentEvent): JobStreamEntry => ({ kind: 'event', event: e, meta: META });
const turn = event({ type: 'turn_started', turn: 1, attempt: 1, isRetry: false, isFinalTurn: true });
const text = (t: string) => event({ type: 'output', text: t });
const journaled = event({ type: 'answer_journaled', turn: 1 });
const result = (report: string): JobStreamEntry => ({ kind: 'result', result: answer('job-1', report) });

/** Follows the job's stream as a face does; resolves with the report text its client got and the result. */
async function follow(redis: Redis, keys: ReturnType<typeof queueKeys>) {
  const got: string[] = [];
  const relay = new EventRelay({ agent: 'echo', input: 'hi' }, 'job-1', (e) => {
    if (e.type === 'output') got.push(e.text);
  });
  const outcome = await followJob(redis, keys, 'job-1', {
    onEntry: (entry) => relay.entry(entry),
    wake: (signal) =>
      new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true })),
    gone: async () => 'gone',
    pollMs: 50,
  });
  relay.finish();
  return { text: got.join(''), outcome: outcome as AgentResult };
}

async function written(writer: JobStreamWriter, ...entries: JobStreamEntry[]): Promise<void> {
  for (const entry of entries) writer.write(entry);
  await writer.flush();
}

test('a worker that lost the job (frozen past its lock) and wakes: its entries after the take-over are skipped, the new owner streams the report once, its result ends the follow', async () => {
  const redis = new Redis((await sharedRedis()).url);
  const keys = queueKeys(freshQueueName());
  try {
    const stale = new JobStreamWriter(redis, keys, 'job-1', 1, 60);
    const owner = new JobStreamWriter(redis, keys, 'job-1', 2, 60);
    // The first worker streams part of the report (held: not journaled yet) and freezes.
    await written(stale, { kind: 'journaling' }, turn, text('stale '), text('start '));
    // The next attempt takes over and begins the turn again.
    await written(
      owner,
      { kind: 'moved', worker: 'w2', fromTurn: 0 },
      { kind: 'journaling' },
      turn,
      text('Hel'),
    );
    // The first wakes and finishes its run: its text, its journaled answer, its result, all interleaved.
    await written(stale, text('end '), journaled);
    await written(owner, text('lo '));
    await written(stale, result('stale start end'));
    await written(owner, text('world'), journaled, result('Hello world'));
    const { text: got, outcome } = await follow(redis, keys);
    expect(got).toBe('Hello world');
    expect(outcome.finalReport?.content).toBe('Hello world');
  } finally {
    redis.disconnect();
  }
});

test('a stale attempt that writes its own take-over notice late does not take the job back; a repeated entry is read once', async () => {
  const redis = new Redis((await sharedRedis()).url);
  const keys = queueKeys(freshQueueName());
  try {
    const first = new JobStreamWriter(redis, keys, 'job-1', 1, 60);
    const second = new JobStreamWriter(redis, keys, 'job-1', 2, 60);
    const third = new JobStreamWriter(redis, keys, 'job-1', 3, 60);
    await written(first, turn, text('one '));
    // Attempt 3 takes over before attempt 2, frozen since it was handed the job, writes a word.
    await written(third, { kind: 'moved', worker: 'w3', fromTurn: 0 }, turn, text('Hello '));
    await written(second, { kind: 'moved', worker: 'w2', fromTurn: 0 }, turn, text('two '), result('two'));
    // A write sent again (a cluster master died before answering it): the same entry twice.
    const rows = await redis.xrange(keys.events('job-1'), '-', '+');
    const hello = rows.find(([, fields]) => fields.join(' ').includes('Hello'));
    await redis.xadd(keys.events('job-1'), '*', ...(hello?.[1] ?? []));
    await written(third, text('world'), result('Hello world'));
    const { text: got, outcome } = await follow(redis, keys);
    // No journal: the first attempt's word went out, then was withdrawn on the move (output_retracted).
    expect(got).toBe('one Hello world');
    expect(outcome.finalReport?.content).toBe('Hello world');
  } finally {
    redis.disconnect();
  }
});
