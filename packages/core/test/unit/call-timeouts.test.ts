import { describe, expect, test, vi } from 'vitest';
import { CallTimeouts } from '../../src/tools/call-timeouts.js';

describe('CallTimeouts', () => {
  test('calls started in one pass share one timer, and each open call expires when it fires', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const made = vi.spyOn(globalThis, 'setTimeout');
      const timeouts = new CallTimeouts(100);
      const expired: string[] = [];
      let bOpen = true;
      timeouts.start(() => expired.push('a'));
      const b = timeouts.start(() => {
        if (bOpen) expired.push('b');
      });
      timeouts.start(() => expired.push('c'));
      expect(made).toHaveBeenCalledTimes(1);
      bOpen = false;
      timeouts.finished(b);
      vi.advanceTimersByTime(99);
      expect(expired).toEqual([]);
      vi.advanceTimersByTime(1);
      expect(expired).toEqual(['a', 'c']);
    } finally {
      // The spy wraps the fake: it goes first, then the real timers come back.
      vi.restoreAllMocks();
      vi.useRealTimers();
    }
  });

  test('the timer goes with the last call, and a call of a later pass starts its own', async () => {
    const timeouts = new CallTimeouts(20);
    const expired: string[] = [];
    const a = timeouts.start(() => expired.push('a'));
    const b = timeouts.start(() => expired.push('b'));
    timeouts.finished(a);
    timeouts.finished(b);
    await Promise.resolve();
    const started = Date.now();
    timeouts.start(() =>
      expired.push(`c after ${Date.now() - started >= 19 ? 'its own limit' : 'too soon'}`),
    );
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(expired).toEqual(['c after its own limit']);
  });
});
