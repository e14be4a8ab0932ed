// An abort reaches the provider: the HTTP request closes at once, as the server sees it, so the
// model stops generating (and billing) instead of answering a caller who has left.
import type { ModelRequest } from '@agent/protocol';
import { type ModelServer, type ScriptStep, startModelServer } from '@agent/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, collectError, WIRE_TYPES } from './helpers.js';

const request: ModelRequest = { messages: [{ role: 'user', content: 'count slowly' }] };
/** 20 deltas 200 ms apart: about 4 s of stream still to come after the first delta. */
const slowAnswer = { text: Array.from({ length: 20 }, (_, i) => `${i} `), tokenDelayMs: 200 };
/** The server's view of an abort must come within this. */
const CLOSE_WITHIN_MS = 100;
/** How long the test waits for the server to see the close before calling it never closed. */
const WAIT_FOR_CLOSE_MS = 1500;

/** Milliseconds from `abortedAt` until the server saw the request close; Infinity if it stayed open. */
async function closeDelay(server: ModelServer, index: number, abortedAt: number): Promise<number> {
  return ((await server.closedAt(index, WAIT_FOR_CLOSE_MS)) ?? Number.POSITIVE_INFINITY) - abortedAt;
}

/** Waits until the server has received the request `index` (and had `settleMs` to answer part of it). */
async function received(server: ModelServer, index: number, settleMs: number): Promise<void> {
  while (server.exchanges.length <= index) await new Promise((resolve) => setTimeout(resolve, 5));
  await new Promise((resolve) => setTimeout(resolve, settleMs));
}

describe.each(WIRE_TYPES)('%s', (type) => {
  let server: ModelServer;
  beforeAll(async () => {
    server = await startModelServer({ strict: true });
  });
  afterAll(() => server.close());

  /**
   * `onceAborted` up to 3 times, until the request closes within the bound: the server shares
   * this process's event loop, so a load spike on a shared machine can delay what it sees; a
   * request left open (the defect) fails every round.
   */
  async function abortedCall(step: ScriptStep, callRequest: ModelRequest = request) {
    let best = await onceAborted(step, callRequest);
    for (
      let round = 2;
      round <= 3 && Math.max(best.closedAfter, best.returnedAfter) >= CLOSE_WITHIN_MS;
      round++
    ) {
      const again = await onceAborted(step, callRequest);
      if (Math.max(again.closedAfter, again.returnedAfter) < Math.max(best.closedAfter, best.returnedAfter))
        best = again;
    }
    return best;
  }

  /** Starts a call for `step`, aborts it once the server has it, and returns how it ended. */
  async function onceAborted(step: ScriptStep, callRequest: ModelRequest) {
    server.push(step);
    const index = server.exchanges.length;
    const controller = new AbortController();
    const settled = collectError(client().stream(callRequest, { signal: controller.signal }));
    await received(server, index, 50);
    const abortedAt = Date.now();
    controller.abort();
    const { error } = await settled;
    const returnedAfter = Date.now() - abortedAt;
    return { error, returnedAfter, closedAfter: await closeDelay(server, index, abortedAt), index };
  }

  const client = () => clientFor(server, type, { timeoutMs: 30_000 });

  it('an abort before the first byte closes the provider request at once', async () => {
    const { error, returnedAfter, closedAfter, index } = await abortedCall({ text: 'late', fault: 'hang' });
    expect(error.kind).toBe('aborted');
    expect(returnedAfter).toBeLessThan(CLOSE_WITHIN_MS);
    expect(closedAfter).toBeLessThan(CLOSE_WITHIN_MS);
    expect(server.exchanges[index]?.answered).toBe(false);
  });

  it('an abort after the headers, before any event, closes the provider request at once', async () => {
    const { error, closedAfter } = await abortedCall({ text: 'late', fault: 'hang-after-headers' });
    expect(error.kind).toBe('aborted');
    expect(closedAfter).toBeLessThan(CLOSE_WITHIN_MS);
  });

  it('an abort mid-stream closes the provider request at once', async () => {
    const { error, closedAfter, index } = await abortedCall(slowAnswer);
    expect(error.kind).toBe('aborted');
    expect(closedAfter).toBeLessThan(CLOSE_WITHIN_MS);
    expect(server.exchanges[index]?.answered).toBe(false);
  });

  it('an abort of a whole-answer (non-streamed) call closes the provider request at once', async () => {
    const { error, closedAfter } = await abortedCall(
      { text: 'late', fault: 'hang' },
      { ...request, stream: false },
    );
    expect(error.kind).toBe('aborted');
    expect(closedAfter).toBeLessThan(CLOSE_WITHIN_MS);
  });

  it('a call that is read to its end closes as answered (the abort path is not taken)', async () => {
    server.push({ text: 'whole' });
    const index = server.exchanges.length;
    for await (const _ of client().stream(request)) {
      // read to the end
    }
    expect(await closeDelay(server, index, 0)).toBeLessThan(Number.POSITIVE_INFINITY);
    expect(server.exchanges[index]?.answered).toBe(true);
  });
});
