import { describe, expect, test } from 'vitest';
import { type BackoffStep, backoffFor, retryDelay } from '../../src/loop/retry-delay.js';

describe('retryDelay', () => {
  test('the n-th wait is in [d/2, d) with d = min(max, base * 2^(n-1)), over many sequences', () => {
    const backoff = backoffFor({ baseMs: 100, maxMs: 3000 });
    for (let run = 0; run < 200; run++) {
      let step: BackoffStep | undefined;
      for (let n = 1; n <= 10; n++) {
        const next = retryDelay(step, {}, backoff);
        step = next.step;
        const d = Math.min(3000, 100 * 2 ** (n - 1));
        expect(next.delayMs).toBeGreaterThanOrEqual(d / 2);
        expect(next.delayMs).toBeLessThanOrEqual(d);
      }
    }
  });

  test('waits are jittered: two sequences rarely agree', () => {
    const backoff = backoffFor(undefined);
    const firsts = new Set(Array.from({ length: 50 }, () => retryDelay(undefined, {}, backoff).delayMs));
    expect(firsts.size).toBeGreaterThan(10);
  });

  test('retry-after wins, bounded to 1-60 s, and the sequence still advances', () => {
    const backoff = backoffFor({ baseMs: 100, maxMs: 10_000 });
    const first = retryDelay(undefined, { retryAfterMs: 2500 }, backoff);
    expect(first.delayMs).toBe(2500);
    expect(retryDelay(undefined, { retryAfterMs: 5 }, backoff).delayMs).toBe(1000);
    expect(retryDelay(undefined, { retryAfterMs: 3_600_000 }, backoff).delayMs).toBe(60_000);
    const second = retryDelay(first.step, {}, backoff);
    expect(second.delayMs).toBeGreaterThanOrEqual(100);
    expect(second.delayMs).toBeLessThanOrEqual(200);
  });

  test('a base above the max is held to the max', () => {
    const backoff = backoffFor({ baseMs: 10_000, maxMs: 40 });
    const { delayMs } = retryDelay(undefined, {}, backoff);
    expect(delayMs).toBeGreaterThanOrEqual(20);
    expect(delayMs).toBeLessThanOrEqual(40);
  });

  test('zero turns the backoff off', () => {
    const backoff = backoffFor({ baseMs: 0, maxMs: 0 });
    expect(retryDelay(undefined, {}, backoff).delayMs).toBe(0);
  });
});
