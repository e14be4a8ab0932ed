import { AgentError } from '@agent/protocol';
import { describe, expect, it } from 'vitest';
import { Admission, AdmissionError } from '../src/index.js';

describe('Admission', () => {
  it('runs up to the limit, queues FIFO, and refuses with 429 when the queue is full', async () => {
    const admission = new Admission({ limit: 1, queueSize: 2, retryAfterSeconds: 3 });
    const first = await admission.enter();
    const order: string[] = [];
    const second = admission.enter().then((ticket) => {
      order.push('second');
      return ticket;
    });
    const third = admission.enter().then((ticket) => {
      order.push('third');
      return ticket;
    });
    expect(admission.queued).toBe(2);
    const refused = await admission.enter().catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AdmissionError);
    expect(refused).toMatchObject({ status: 429, retryAfterSeconds: 3, refusal: 'queue_full' });
    first.release();
    (await second).release();
    (await third).release();
    expect(order).toEqual(['second', 'third']);
    expect(admission.active).toBe(0);
    await admission.idle();
  });

  it('tells onAdmitted how long each admitted request waited, once per admission, never a refused one', async () => {
    const admission = new Admission({ limit: 1, queueSize: 1 });
    const waits: number[] = [];
    admission.onAdmitted = (ms) => waits.push(ms);
    const first = await admission.enter();
    const second = admission.enter();
    await admission.enter().catch(() => undefined); // refused: the queue is full
    expect(waits).toHaveLength(1);
    first.release();
    (await second).release();
    expect(waits).toHaveLength(2);
    expect(waits.every((ms) => Number.isFinite(ms) && ms >= 0)).toBe(true);
    admission.onAdmitted = () => {
      throw new Error('a broken listener');
    };
    (await admission.enter()).release();
    expect(admission.active).toBe(0);
  });

  it('drops a queued request whose client goes away', async () => {
    const admission = new Admission({ limit: 1, queueSize: 1 });
    const first = await admission.enter();
    const client = new AbortController();
    const waiting = admission.enter(client.signal).catch((error: unknown) => error);
    client.abort();
    const gone = await waiting;
    expect(AgentError.is(gone, 'client_gone')).toBe(true);
    expect((gone as Error).message).toBe('client went away while queued');
    expect(admission.queued).toBe(0);
    first.release();
  });

  it('refuses with 503 while draining and aborts running sessions on request', async () => {
    const admission = new Admission({ limit: 2 });
    const running = await admission.enter();
    admission.beginDrain();
    await expect(admission.enter()).rejects.toMatchObject({ status: 503, refusal: 'draining' });
    admission.abortAll('deadline');
    expect(running.signal.aborted).toBe(true);
    expect((running.signal.reason as Error).message).toBe('deadline');
    // A reason a program can tell apart: the project's error base, code `aborted`.
    expect(AgentError.is(running.signal.reason, 'aborted')).toBe(true);
    const idle = admission.idle();
    running.release();
    await idle;
  });

  it('aborts a session when its client disconnects', async () => {
    const admission = new Admission();
    const client = new AbortController();
    const ticket = await admission.enter(client.signal);
    client.abort();
    expect(ticket.signal.aborted).toBe(true);
    ticket.release();
  });
});
