import { describe, expect, it } from 'vitest';
import { QueueAbortedError, ToolQueues } from '../src/index.js';

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('ToolQueues', () => {
  it('runs at most `limit` calls at once, first come first served', async () => {
    const queues = new ToolQueues();
    queues.configure({ browser: 2 });
    const started: number[] = [];
    const gates = [deferred(), deferred(), deferred(), deferred()];
    const runs = gates.map((gate, i) =>
      queues.run('browser', async () => {
        started.push(i);
        await gate.promise;
        return i;
      }),
    );
    await tick();
    expect(started).toEqual([0, 1]);
    expect(queues.stats('browser')).toEqual({ running: 2, waiting: 2 });
    gates[1]!.resolve();
    await tick();
    expect(started).toEqual([0, 1, 2]);
    gates[0]!.resolve();
    gates[2]!.resolve();
    gates[3]!.resolve();
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3]);
    expect(queues.stats('browser')).toEqual({ running: 0, waiting: 0 });
  });

  it('lets a waiting call whose signal aborts leave the queue', async () => {
    const queues = new ToolQueues();
    queues.configure({ one: 1 });
    const gate = deferred();
    const first = queues.run('one', () => gate.promise);
    const controller = new AbortController();
    let secondRan = false;
    const second = queues.run(
      'one',
      async () => {
        secondRan = true;
      },
      controller.signal,
    );
    const third = queues.run('one', async () => 'third');
    await tick();
    controller.abort();
    await expect(second).rejects.toBeInstanceOf(QueueAbortedError);
    expect(queues.stats('one')).toEqual({ running: 1, waiting: 1 });
    gate.resolve();
    await first;
    expect(await third).toBe('third');
    expect(secondRan).toBe(false);
  });

  it('leaves unconfigured queues unlimited by default, applies a default limit if given, and starts waiters when a limit rises', async () => {
    const open = new ToolQueues();
    const gate = deferred();
    const many = Array.from({ length: 20 }, () => open.run('any', () => gate.promise));
    await tick();
    expect(open.stats('any').running).toBe(20);
    gate.resolve();
    await Promise.all(many);

    const strict = new ToolQueues({ defaultLimit: 1 });
    const hold = deferred();
    const a = strict.run('x', () => hold.promise);
    const b = strict.run('x', async () => 'b');
    await tick();
    expect(strict.stats('x')).toEqual({ running: 1, waiting: 1 });
    strict.configure({ x: 2 });
    expect(await b).toBe('b');
    hold.resolve();
    await a;
  });

  it('rejects a bad limit with the value and what is allowed', () => {
    expect(() => new ToolQueues().configure({ q: 0 })).toThrow(
      'Queue "q": the limit must be a positive integer or Infinity, got 0',
    );
    expect(() => new ToolQueues().configure({ q: 1.5 })).toThrow(
      expect.objectContaining({ code: 'configuration', field: 'limit', value: 1.5 }) as unknown as Error,
    );
  });

  it('releases the slot when the call throws', async () => {
    const queues = new ToolQueues();
    queues.configure({ q: 1 });
    await expect(queues.run('q', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await queues.run('q', async () => 'next')).toBe('next');
  });
});
