// The guardrails suite's report texts: the linearity figures mean something only if every
// size is exactly what its label says and the one finding sits at the very end, so a check
// that answers it has read the whole text.
import { compileSearchPattern } from '@agent/schema';
import { describe, expect, it } from 'vitest';
import { PLANTED_EMAIL, PLANTED_SECRET, reportText, SECRET_PATTERN } from '../src/guardrails/report-text.js';

describe('reportText', () => {
  const pattern = compileSearchPattern(SECRET_PATTERN, { ignoreCase: true });

  it('is exactly the size asked for, with the planted findings only at its end', () => {
    const text = reportText(64 * 1024);
    expect(text).toHaveLength(64 * 1024);
    expect(pattern.search(text)).toBe(text.indexOf(PLANTED_SECRET));
    expect(text.indexOf(PLANTED_SECRET)).toBeGreaterThan(text.length - 64);
    expect(text.indexOf(PLANTED_EMAIL)).toBeGreaterThan(text.length - 100);
    expect(text.indexOf('@')).toBeLessThan(200); // near misses throughout
  });

  it('without the planted findings, trips no check and keeps its size', () => {
    const text = reportText(32 * 1024, false);
    expect(text).toHaveLength(32 * 1024);
    expect(pattern.search(text)).toBe(-1);
    expect(text).not.toContain(PLANTED_EMAIL);
  });

  it('refuses a size too small for the planted tail', () => {
    expect(() => reportText(10)).toThrow(/too short/);
  });
});
