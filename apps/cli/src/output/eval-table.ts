import type { EvalRunFile } from '@agent/protocol';
import { textTable } from './text-table.js';

/** Widest case id and scores column shown (longer ones are cut). */
const MAX_ID = 32;
const MAX_SCORES = 60;

/**
 * An eval run for a terminal: one row per case (pass/fail, scores, cost, turns, time), the
 * summary (pass^1, pass^k, cost, tokens) and what changed against the baseline.
 */
export function renderEvalRun(run: EvalRunFile): string {
  const rows = run.cases.map((evalCase) => {
    const runs = evalCase.runs;
    const passedRuns = runs.filter((entry) => entry.passed).length;
    const verdict = evalCase.passed ? 'pass' : 'FAIL';
    const scoreNames = new Map<string, number[]>();
    for (const entry of runs)
      for (const score of entry.scores)
        scoreNames.set(score.scorer, [...(scoreNames.get(score.scorer) ?? []), score.score]);
    const scores = [...scoreNames].map(([name, values]) => `${name}=${mean(values).toFixed(2)}`).join(' ');
    const errors = runs.filter((entry) => entry.error !== undefined).length;
    const cost = runs.reduce<number | undefined>(
      (sum, entry) => (entry.costUsd === undefined ? sum : (sum ?? 0) + entry.costUsd),
      undefined,
    );
    return [
      cut(evalCase.id, MAX_ID),
      runs.length > 1 ? `${verdict} ${passedRuns}/${runs.length}` : verdict,
      cut(errors > 0 ? `${scores} error×${errors}`.trim() : scores, MAX_SCORES),
      cost === undefined ? '-' : `$${cost.toFixed(4)}`,
      String(mean(runs.map((entry) => entry.turns))),
      `${(mean(runs.map((entry) => entry.durationMs)) / 1000).toFixed(1)}s`,
    ];
  });
  const lines = textTable(['case', 'result', 'scores', 'cost', 'turns', 'time'], rows);
  lines.push('', summaryLine(run), ...failureLines(run), ...baselineLines(run));
  return `${lines.join('\n')}\n`;
}

function summaryLine({ summary, repeat }: EvalRunFile): string {
  const cost = summary.costUsd === undefined ? 'cost unknown' : `cost $${summary.costUsd.toFixed(4)}`;
  return (
    `${summary.passed}/${summary.cases} cases passed; pass^1 ${summary.passRate.toFixed(3)}` +
    (repeat > 1 ? `, pass^${repeat} ${summary.passHatK.toFixed(3)}` : '') +
    `; ${cost}; tokens ${summary.inputTokens} in, ${summary.outputTokens} out`
  );
}

/** Why each failing case failed: its first failing run's error or failing scores. */
function failureLines(run: EvalRunFile): string[] {
  const lines: string[] = [];
  for (const evalCase of run.cases) {
    const failing = evalCase.runs.find((entry) => !entry.passed);
    if (failing === undefined) continue;
    const why =
      failing.error ??
      [
        ...(failing.success ? [] : [`session ${failing.exitCode}`]),
        ...failing.scores
          .filter((score) => !score.pass)
          .map((score) => `${score.scorer}: ${score.reason ?? score.score}`),
      ].join('; ');
    lines.push(`  ${evalCase.id}: ${why}`);
  }
  return lines.length === 0 ? [] : ['failed:', ...lines];
}

function baselineLines({ baseline }: EvalRunFile): string[] {
  if (baseline === undefined) return [];
  const list = (ids: string[]) => (ids.length === 0 ? 'none' : ids.join(', '));
  return [
    `against ${baseline.runId}: improved ${list(baseline.improved)}; regressed ${list(baseline.regressed)}` +
      `; added ${baseline.added.length}, removed ${baseline.removed.length}`,
  ];
}

function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length;
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
