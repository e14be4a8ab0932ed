import type { ToolCall, ToolOutputHook } from '@agent/protocol';
import { describe, expect, test } from 'vitest';
import { ContextGuard } from '../../src/context/context-guard.js';
import { TokenEstimator } from '../../src/context/token-estimator.js';
import { SessionRecorder } from '../../src/observe/recorder.js';
import { type Admitted, CONTEXT_BUDGET_EXCEEDED, ResultSizer } from '../../src/tools/result-sizer.js';
import { payload } from './compaction-helpers.js';

const call = (id: string): ToolCall => ({ id, name: 'fetch', arguments: {} });

/** A hook that keeps every result (its `size` answers later: admissions overlap). */
const keepingHook: ToolOutputHook = {
  size: async () => ({ action: 'keep' }),
  tools: () => undefined,
  dispose: async () => {},
};

interface RoomCall {
  pendingRaw: number;
  overflow: number;
  done: (ran: boolean) => void;
}

/**
 * A sizer in a 1500-token window (limit 1244) whose conversation holds `payload(0, held)`;
 * `makeRoom` is answered by the test (`free`: the conversation is emptied, as a compaction would).
 */
function sizerWith(options: { held: number; hook?: ToolOutputHook; room?: boolean }) {
  const estimator = new TokenEstimator();
  const guard = new ContextGuard(1500, 0, (m) => estimator.rawMessages(m));
  guard.add({ role: 'user', content: payload(0, options.held) });
  const rooms: RoomCall[] = [];
  const makeRoom = (pendingRaw: number, overflow: number) =>
    new Promise<boolean>((done) => rooms.push({ pendingRaw, overflow, done }));
  const sizer = new ResultSizer({
    hook: options.hook,
    estimator,
    guard,
    recorder: new SessionRecorder(undefined, { isMaster: true, sessionId: 's', agentPath: 'a' }, () => 0),
    toolResponseMaxBytes: 1_000_000,
    target: () => undefined,
    signal: new AbortController().signal,
    ...(options.room === false ? {} : { makeRoom }),
  });
  sizer.beginTurn();
  const free = () => guard.reset([]);
  return { sizer, rooms, free, estimator };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('the result sizer making room (a compaction inside the turn)', () => {
  test('results in flight together: one compaction, the others wait for it and are checked again', async () => {
    const { sizer, rooms, free, estimator } = sizerWith({ held: 600, hook: keepingHook });
    const small = payload(1, 20);
    expect(await sizer.admit(call('a'), small)).toMatchObject({ contextExceeded: false });
    const big = [payload(2, 200), payload(3, 200), payload(4, 200)];
    const admissions = big.map((text, i) => sizer.admit(call(`b${i}`), text) as Promise<Admitted>);
    await settle();
    expect(rooms).toHaveLength(1);
    expect(rooms[0]!.pendingRaw).toBe(estimator.rawText(small));
    expect(rooms[0]!.overflow).toBeGreaterThan(0);
    free();
    rooms[0]!.done(true);
    const admitted = await Promise.all(admissions);
    expect(admitted.map((a) => a.text)).toEqual(big);
    expect(rooms).toHaveLength(1);
  });

  test('a compaction that made no room: every overflowing result of the turn refused, no second compaction until the next turn', async () => {
    const { sizer, rooms } = sizerWith({ held: 700 });
    const first = sizer.admit(call('a'), payload(1, 100));
    expect(first).toBeInstanceOf(Promise);
    await settle();
    rooms[0]!.done(true);
    expect(await first).toEqual({
      text: CONTEXT_BUDGET_EXCEEDED,
      contextExceeded: true,
      details: expect.any(Object),
    });
    // The turn's compaction ran: the next overflowing result is refused at once (synchronously).
    expect(sizer.admit(call('b'), payload(2, 100))).toMatchObject({ contextExceeded: true });
    expect(rooms).toHaveLength(1);
    sizer.beginTurn();
    void sizer.admit(call('c'), payload(3, 100));
    await settle();
    expect(rooms).toHaveLength(2);
  });

  test('a compaction that did not run (nothing to compact): a later result of the turn may try again', async () => {
    const { sizer, rooms } = sizerWith({ held: 700 });
    const first = sizer.admit(call('a'), payload(1, 100));
    await settle();
    rooms[0]!.done(false);
    expect(await first).toMatchObject({ contextExceeded: true });
    void sizer.admit(call('b'), payload(2, 100));
    await settle();
    expect(rooms).toHaveLength(2);
  });

  test('without a hook the check stays synchronous: a fitting result with compaction on, any result with it off', () => {
    const on = sizerWith({ held: 100 });
    expect(on.sizer.admit(call('a'), payload(1, 50))).toMatchObject({ contextExceeded: false });
    const off = sizerWith({ held: 700, room: false });
    expect(off.sizer.admit(call('a'), payload(1, 50))).toMatchObject({ contextExceeded: true });
    expect(off.rooms).toEqual([]);
  });
});
