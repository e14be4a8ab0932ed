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

  it('words on long runs without separators: 1 MB costs about 4x what 256 KB does', async () => {
    const guard = wordsGuardrail({ on: 'output', blocked: ['aaaa'] });
    const run = (bytes: number) => () => verdictOf(guard, report('a'.repeat(bytes)));
    const ratio = (await fastest(run(1024 * 1024))) / (await fastest(run(256 * 1024)));
    expect(ratio).toBeLessThan(10);
  }, 120_000);
});
