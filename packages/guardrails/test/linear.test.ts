import { describe, expect, it } from 'vitest';
import { piiGuardrail, wordsGuardrail } from '../src/index.js';
import { report, verdictOf } from './helpers.js';

// Timing belongs to the benches; these only catch a detector that is not linear (4x the text
// taking 16x the time), with bounds loose enough for a shared 2-core machine.
async function fastest(run: () => Promise<unknown>): Promise<number> {
  await run();
  const times: number[] = [];
  for (let i = 0; i < 2; i++) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  return Math.min(...times);
}

const prose =
  'Dear team, ann@example.com called from +44 20 7946 0958 about invoice 20240115; ' +
  'her card 4111 1111 1111 1111 and IBAN DE89 3704 0044 0532 0130 00 are on file. ';

describe('linear cost on large texts', () => {
  it('PII redaction of every kind: 512 KB costs about 4x what 128 KB does', async () => {
    const guard = piiGuardrail({ on: 'output', action: 'redact' });
    const small = prose.repeat(Math.ceil((128 * 1024) / prose.length));
    const large = prose.repeat(Math.ceil((512 * 1024) / prose.length));
    const verdict = await verdictOf(guard, report(large));
    expect(verdict.verdict).toBe('rewrite');
    const value = verdict.verdict === 'rewrite' ? String(verdict.value) : '';
    expect(value).not.toContain('ann@example.com');
    expect(value).not.toContain('4111 1111');
    const ratio =
      (await fastest(() => verdictOf(guard, report(large)))) /
      (await fastest(() => verdictOf(guard, report(small))));
    expect(ratio).toBeLessThan(10);
  }, 120_000);

  it('words: phrases that all start with the same word cost no more per word of text', async () => {
    // 5,000 phrases starting with `the`: a look-up per phrase at each `the` would cost 5,000x.
    const phrases = Array.from({ length: 5_000 }, (_, i) => `the thing${i}`);
    const guard = wordsGuardrail({ on: 'output', blocked: phrases });
    const plain = wordsGuardrail({ on: 'output', blocked: ['nothing'] });
    const text = report('the cat and the dog '.repeat(20_000));
    expect((await verdictOf(guard, text)).verdict).toBe('pass');
    expect((await verdictOf(guard, report('and the thing4999 too'))).verdict).toBe('block');
    const ratio =
      (await fastest(() => verdictOf(guard, text))) / (await fastest(() => verdictOf(plain, text)));
    // The same walk either way (one trie step per word); 5,000x if it scanned the list.
    expect(ratio).toBeLessThan(5);
  }, 120_000);
});
