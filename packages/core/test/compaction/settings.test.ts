import { compactionProblems } from '@agent/core';
import { DEFAULT_COMPACTION } from '@agent/protocol';
import { describe, expect, test } from 'vitest';
import { resolveCompaction } from '../../src/compaction/settings.js';

describe('the compaction setting', () => {
  test('true, false, absent and a full object are taken', () => {
    for (const value of [true, false, undefined, { at: 0.5, keep: 3, attempts: 1, tokens: 512 }]) {
      expect(compactionProblems(value)).toEqual([]);
    }
  });

  test('each bad value is named with what is allowed', () => {
    const problems = compactionProblems({ at: 1, keep: 0, attempts: 2.5, tokens: 10, every: 3 });
    expect(problems.map((p) => p.field).sort()).toEqual([
      'compaction.at',
      'compaction.attempts',
      'compaction.every',
      'compaction.keep',
      'compaction.tokens',
    ]);
    const at = problems.find((p) => p.field === 'compaction.at');
    expect(at?.allowed).toContain('above 0 and below 1');
    expect(compactionProblems('yes')[0]?.allowed).toContain('true, false, or {');
  });

  test('a bad setting refuses the session before any model call', async () => {
    const { runAgent } = await import('@agent/core');
    const { scriptedModel, finalReport } = await import('@agent/testkit');
    const model = scriptedModel([finalReport('never')]);
    const result = await runAgent({ model, prompt: 'hi', compaction: { at: 2 } });
    expect(result.success).toBe(false);
    expect(result.exitCode).toBe('EXIT-CONFIGURATION');
    expect(result.error).toContain('compaction.at');
    expect(model.requests).toHaveLength(0);
  });

  test('defaults fill what is not given; off is undefined', () => {
    expect(resolveCompaction(true)).toEqual(DEFAULT_COMPACTION);
    expect(resolveCompaction({ keep: 4 })).toEqual({ ...DEFAULT_COMPACTION, keep: 4 });
    expect(resolveCompaction(false)).toBeUndefined();
    expect(resolveCompaction(undefined)).toBeUndefined();
  });
});
