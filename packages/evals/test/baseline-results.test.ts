import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EVAL_RUN_KIND, type EvalCaseResult, type EvalRunFile } from '@agent/protocol';
import { afterAll, expect, test } from 'vitest';
import { compareWithBaseline, evalRunToJUnit, readEvalRun, writeEvalRun } from '../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'evals-results-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = (id: string, passed: boolean, score = passed ? 1 : 0): EvalCaseResult => ({
  id,
  input: id,
  passed,
  runs: [
    {
      repeat: 0,
      passed,
      success: true,
      exitCode: 'EXIT-FINAL-ANSWER',
      scores: [{ scorer: 'equals', score, pass: passed, ...(passed ? {} : { reason: 'expected 1, got 2' }) }],
      inputTokens: 1,
      outputTokens: 1,
      turns: 1,
      durationMs: 5,
    },
  ],
});

const file = (cases: EvalCaseResult[], runId = 'r1'): EvalRunFile => ({
  kind: EVAL_RUN_KIND,
  version: 1,
  runId,
  agent: 'a.ai',
  dataset: 'cases.jsonl',
  startedAt: 0,
  endedAt: 10,
  durationMs: 10,
  repeat: 1,
  concurrency: 1,
  summary: {
    cases: cases.length,
    passed: 0,
    failed: 0,
    passRate: 0,
    passHatK: 0,
    inputTokens: 0,
    outputTokens: 0,
  },
  cases,
});

test('the baseline comparison sorts cases by id into improved, regressed, unchanged, added, removed', () => {
  const before = file([run('a', true), run('b', false), run('c', true), run('gone', true)]);
  const comparison = compareWithBaseline(
    [run('a', true), run('b', true), run('c', false), run('new', true)],
    before,
  );
  expect(comparison).toEqual({
    runId: 'r1',
    improved: ['b'],
    regressed: ['c'],
    unchanged: ['a'],
    added: ['new'],
    removed: ['gone'],
    scores: [
      { id: 'a', before: 1, after: 1 },
      { id: 'b', before: 0, after: 1 },
      { id: 'c', before: 1, after: 0 },
    ],
  });
});

test('results files round-trip; a newer version or another file is refused', async () => {
  const written = file([run('a', true)]);
  const path = await writeEvalRun(join(dir, 'r1'), written);
  expect(await readEvalRun(path)).toEqual(written);
  writeFileSync(join(dir, 'newer.json'), JSON.stringify({ ...written, version: 2 }));
  await expect(readEvalRun(join(dir, 'newer.json'))).rejects.toThrow(
    'eval run version 2 is newer than this version reads (up to 1)',
  );
  writeFileSync(join(dir, 'other.json'), '{"kind":"something"}');
  await expect(readEvalRun(join(dir, 'other.json'))).rejects.toThrow('not an eval run');
});

test('JUnit: one test case per dataset case, failures with each failing score', () => {
  const [suite] = evalRunToJUnit(file([run('a', true), run('b', false)]));
  expect(suite!.cases).toEqual([
    { name: 'a', classname: 'eval.cases', timeMs: 5 },
    {
      name: 'b',
      classname: 'eval.cases',
      timeMs: 5,
      failure: { message: '1 of 1 run(s) failed', type: 'eval', details: 'run 0: equals: expected 1, got 2' },
    },
  ]);
});
