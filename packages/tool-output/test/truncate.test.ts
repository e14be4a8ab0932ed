import { describe, expect, test } from 'vitest';
import { textSource, truncateOutput } from '../src/truncate.js';

function lines(count: number): string {
  return Array.from(
    { length: count },
    (_, i) => `line ${String(i + 1).padStart(5, '0')} ${'-'.repeat(40)}`,
  ).join('\n');
}

describe('truncate', () => {
  test('keeps the top and the bottom within the budget, under a WARNING line', async () => {
    const text = lines(10_000);
    const bytes = Buffer.byteLength(text);
    const out = await truncateOutput(
      textSource(text),
      { bytes, lines: 10_000 },
      4000,
      'The read-grep extraction could not run: no tools.',
    );
    const [warning] = out.split('\n');
    expect(warning).toMatch(
      /^WARNING: TRUNCATED OUTPUT\. The read-grep extraction could not run: no tools\. Shown: the first \d+ bytes/,
    );
    expect(warning).toContain(`of ${bytes} bytes (10000 lines)`);
    expect(warning).toContain('NOT shown');
    expect(out).toContain('line 00001 ');
    expect(out).toContain('line 10000 ');
    expect(out).not.toContain('line 05000 ');
    expect(out).toMatch(/\[\.\.\. \d+ bytes cut \.\.\.\]/);
    const body = out.slice(out.indexOf('--- top of the output ---'));
    expect(Buffer.byteLength(body)).toBeLessThan(4000 + 200);
    // whole lines on both sides
    const top = body.split('\n')[1]!;
    expect(top).toMatch(/^line 00001 -{40}$/);
    expect(body.trimEnd().split('\n').at(-1)).toMatch(/^line 10000 -{40}$/);
  });

  test('a single long line is cut at character boundaries', async () => {
    const text = '€'.repeat(100_000);
    const out = await truncateOutput(
      textSource(text),
      { bytes: Buffer.byteLength(text), lines: 1 },
      1001,
      'why.',
    );
    expect(out).not.toContain('\uFFFD');
    expect(out.startsWith('WARNING: TRUNCATED OUTPUT. why.')).toBe(true);
  });

  test('an output within the budget is shown whole, still with the WARNING line', async () => {
    const out = await truncateOutput(textSource('a\nb\n'), { bytes: 4, lines: 2 }, 100, 'why.');
    expect(out).toBe(
      'WARNING: why. The output is small enough to show whole (4 bytes, 2 lines); nothing was cut.\n\na\nb\n',
    );
  });
});
