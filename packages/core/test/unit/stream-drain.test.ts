import { describe, expect, test } from 'vitest';
import { StreamDrain } from '../../src/loop/stream-drain.js';

/** An iterator whose steps the test answers by hand. */
function manual<T>() {
  const pending: Array<{ resolve: (r: IteratorResult<T>) => void; reject: (e: unknown) => void }> = [];
  let returned = 0;
  const iterator: AsyncIterator<T> = {
    next: () => new Promise((resolve, reject) => pending.push({ resolve, reject })),
    return: async () => {
      returned++;
      return { done: true, value: undefined };
    },
  };
  const flush = () => new Promise((resolve) => setImmediate(resolve));
  return { iterator, pending, flush, returned: () => returned };
}

async function* values<T>(items: readonly T[]) {
  for (const item of items) yield item;
}

describe('StreamDrain', () => {
  test('hands every value over in order and settles when the iterator ends', async () => {
    const seen: number[] = [];
    await new StreamDrain<number>().run(values([1, 2, 3])[Symbol.asyncIterator](), (v) => seen.push(v));
    expect(seen).toEqual([1, 2, 3]);
  });

  test('stop rejects at once with its reason while a step is still pending, and later steps are dropped', async () => {
    const { iterator, pending, flush } = manual<string>();
    const drain = new StreamDrain<string>();
    const seen: string[] = [];
    const done = drain.run(iterator, (v) => seen.push(v));
    pending[0]!.resolve({ done: false, value: 'a' });
    await flush();
    const reason = new Error('watchdog');
    drain.stop(reason);
    drain.stop(new Error('second reason loses'));
    await expect(done).rejects.toBe(reason);
    pending[1]!.resolve({ done: false, value: 'late' });
    await flush();
    expect(seen).toEqual(['a']);
    expect(pending).toHaveLength(2); // nothing more was pulled
  });

  test('a stop before run rejects the run without pulling', async () => {
    const { iterator, pending } = manual<string>();
    const drain = new StreamDrain<string>();
    drain.stop('aborted');
    await expect(drain.run(iterator, () => {})).rejects.toBe('aborted');
    expect(pending).toHaveLength(0);
  });

  test('an iterator that throws, at next() or in its promise, rejects with its error', async () => {
    const broken: AsyncIterator<number> = {
      next: () => {
        throw new Error('sync failure');
      },
    };
    await expect(new StreamDrain<number>().run(broken, () => {})).rejects.toThrow('sync failure');
    async function* failing() {
      yield 1;
      throw new Error('stream broke');
    }
    const seen: number[] = [];
    await expect(new StreamDrain<number>().run(failing(), (v) => seen.push(v))).rejects.toThrow(
      'stream broke',
    );
    expect(seen).toEqual([1]);
  });

  test('a callback that throws rejects with its error and pulls no further', async () => {
    let pulled = 0;
    const endless: AsyncIterator<number> = { next: async () => ({ done: false, value: ++pulled }) };
    const drain = new StreamDrain<number>();
    await expect(
      drain.run(endless, (v) => {
        if (v === 3) throw new Error('bad event');
      }),
    ).rejects.toThrow('bad event');
    expect(pulled).toBe(3);
  });

  test('drains a 200,000-value stream whole, one step at a time', async () => {
    const count = 200_000;
    let sum = 0;
    await new StreamDrain<number>().run(
      values(Array.from({ length: count }, (_, i) => i))[Symbol.asyncIterator](),
      (v) => {
        sum += v;
      },
    );
    expect(sum).toBe((count * (count - 1)) / 2);
  });
});
