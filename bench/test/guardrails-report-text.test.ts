// The guardrails suite's report texts: the linearity figures mean something only if every
// size is exactly what its label says and the one finding sits at the very end, so a check
// that answers it has read the whole text.
import { piiGuardrail } from '@agent/guardrails';
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

  it('holds no personal data before the planted e-mail, which the PII guardrail redacts', async () => {
    const pii = piiGuardrail({ name: 'pii', on: 'output', action: 'redact' });
    const context = { signal: new AbortController().signal, sessionId: 's', agentPath: 'a', turn: 1 };
    const verdictOn = (text: string) =>
      pii.check(
        { phase: 'report', text, report: { status: 'success', format: 'text', content: text, ts: 0 } },
        context,
      );
    expect((await verdictOn(reportText(16 * 1024, false))).verdict).toBe('pass');
    const planted = await verdictOn(reportText(16 * 1024));
    expect(planted.verdict).toBe('rewrite');
    expect(planted.verdict === 'rewrite' && String(planted.value)).not.toContain(PLANTED_EMAIL);
  });

  it('refuses a size too small for the planted tail', () => {
    expect(() => reportText(10)).toThrow(/too short/);
  });
});
