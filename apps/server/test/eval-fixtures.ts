import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import {
  EVAL_RUN_KIND,
  EVAL_RUN_VERSION,
  type EvalCaseResult,
  type EvalRunFile,
  emptyTotals,
} from '@agent/protocol';
import { recordNode, sessionRecord } from './record-fixtures.js';

/** The case sessions of run `r2`: their records sit in `r2/records/`. */
export const CASE_SESSIONS = { capital: 'sess-capital-1', sum: 'sess-sum-1' } as const;

const T0 = Date.UTC(2026, 10, 20, 9, 0, 0);

function caseResult(
  id: string,
  passed: boolean,
  sessionId: string,
  score: number,
  reason: string,
): EvalCaseResult {
  return {
    id,
    input: `question ${id}`,
    passed,
    runs: [
      {
        repeat: 0,
        passed,
        success: true,
        exitCode: 'EXIT-FINAL-ANSWER',
        sessionId,
        record: `records/${sessionId}.json.gz`,
        report: { format: 'text', content: `answer ${id}` },
        scores: [
          { scorer: 'contains', score, pass: passed, reason },
          {
            scorer: 'judge',
            score: passed ? 0.9 : 0.2,
            pass: passed,
            reason: `judge on ${id}`,
            costUsd: 0.0004,
          },
        ],
        costUsd: 0.0012,
        inputTokens: 120,
        outputTokens: 30,
        turns: 2,
        durationMs: 1500,
      },
    ],
  };
}

/** `result` with a second run (repeat 1) that `passed` or not, its session `sessionId`. */
function repeated(result: EvalCaseResult, passed: boolean, sessionId: string): EvalCaseResult {
  const first = result.runs[0]!;
  const second = {
    ...first,
    repeat: 1,
    passed,
    sessionId,
    record: `records/${sessionId}.json.gz`,
    scores: first.scores.map((score) => ({
      ...score,
      pass: passed,
      score: passed ? 1 : 0,
      reason: `run 2: ${passed ? 'pass' : 'fail'}`,
    })),
  };
  return { ...result, passed: result.passed && passed, runs: [first, second] };
}

/** An eval run file, written only with the protocol's types. */
export function evalRun(
  runId: string,
  startedAt: number,
  cases: EvalCaseResult[],
  extra: Partial<EvalRunFile> = {},
): EvalRunFile {
  const passed = cases.filter((c) => c.passed).length;
  return {
    kind: EVAL_RUN_KIND,
    version: EVAL_RUN_VERSION,
    runId,
    agent: 'qa.ai',
    dataset: 'qa.jsonl',
    startedAt,
    endedAt: startedAt + 4000,
    durationMs: 4000,
    repeat: 1,
    concurrency: 2,
    summary: {
      cases: cases.length,
      passed,
      failed: cases.length - passed,
      passRate: passed / cases.length,
      passHatK: passed / cases.length,
      costUsd: 0.0032,
      inputTokens: 240,
      outputTokens: 60,
    },
    cases,
    ...extra,
  };
}

/** The baseline `r1` (both cases passed) and `r2` (`sum` regressed), with r2's case records. */
export function writeEvalRuns(dir: string): { baseline: EvalRunFile; run: EvalRunFile } {
  const baseline = evalRun('r1', T0, [
    caseResult('capital', true, 'sess-capital-0', 1, 'found "Paris"'),
    caseResult('sum', true, 'sess-sum-0', 1, 'found "42"'),
  ]);
  const run = evalRun(
    'r2',
    T0 + 3_600_000,
    [
      repeated(
        caseResult('capital', true, CASE_SESSIONS.capital, 1, 'found "Paris"'),
        true,
        'sess-capital-2',
      ),
      repeated(
        caseResult('sum', false, CASE_SESSIONS.sum, 0, 'expected "42" in the report'),
        true,
        'sess-sum-2',
      ),
    ],
    {
      // Two runs a case: 3 of 4 runs passed (pass^1), and only capital passed both (pass^2).
      repeat: 2,
      summary: {
        cases: 2,
        passed: 1,
        failed: 1,
        passRate: 0.75,
        passHatK: 0.5,
        costUsd: 0.0064,
        inputTokens: 480,
        outputTokens: 120,
      },
      baseline: {
        runId: 'r1',
        improved: [],
        regressed: ['sum'],
        unchanged: ['capital'],
        added: [],
        removed: [],
        scores: [
          { id: 'capital', before: 0.95, after: 0.95 },
          { id: 'sum', before: 0.95, after: 0.1 },
        ],
      },
    },
  );
  writeRun(dir, baseline);
  writeRun(dir, run);
  for (const [name, sessionId] of Object.entries(CASE_SESSIONS)) writeCaseRecord(dir, 'r2', name, sessionId);
  return { baseline, run };
}

export function writeRun(
  dir: string,
  run: EvalRunFile | Record<string, unknown>,
  runId = String(run.runId),
): void {
  mkdirSync(join(dir, runId, 'records'), { recursive: true });
  writeFileSync(join(dir, runId, 'results.json'), JSON.stringify(run));
}

/** A case's session record: the agent's session with one model call and one tool call. */
function writeCaseRecord(dir: string, runId: string, name: string, sessionId: string): void {
  const record = sessionRecord(
    recordNode({
      id: 'root',
      kind: 'session',
      label: 'qa',
      children: [
        recordNode({ id: 'l1', kind: 'llm', label: 'local:m' }),
        recordNode({ id: 't1', kind: 'tool', label: `lookup_${name}` }),
      ],
    }),
    {
      sessionId,
      agent: 'qa',
      startedAt: T0,
      endedAt: T0 + 1500,
      durationMs: 1500,
      totals: { ...emptyTotals(), llmCalls: 1, toolCalls: 1 },
    },
  );
  writeFileSync(join(dir, runId, 'records', `${sessionId}.json.gz`), gzipSync(JSON.stringify(record)));
}
