import type { BaselineComparison, EvalCaseResult, EvalRunFile } from '@agent/protocol';

/** A case's mean score over its runs: each run's mean score, or 1/0 when it has none. */
export function caseScore(evalCase: EvalCaseResult): number {
  if (evalCase.runs.length === 0) return 0;
  const runScore = (run: EvalCaseResult['runs'][number]) =>
    run.scores.length === 0
      ? Number(run.passed)
      : run.scores.reduce((sum, score) => sum + score.score, 0) / run.scores.length;
  return evalCase.runs.reduce((sum, run) => sum + runScore(run), 0) / evalCase.runs.length;
}

/** How `cases` compare with `baseline`'s, matched by case id. */
export function compareWithBaseline(
  cases: readonly EvalCaseResult[],
  baseline: EvalRunFile,
): BaselineComparison {
  const before = new Map(baseline.cases.map((evalCase) => [evalCase.id, evalCase]));
  const comparison: BaselineComparison = {
    runId: baseline.runId,
    improved: [],
    regressed: [],
    unchanged: [],
    added: [],
    removed: [],
    scores: [],
  };
  const now = new Set<string>();
  for (const evalCase of cases) {
    now.add(evalCase.id);
    const earlier = before.get(evalCase.id);
    if (earlier === undefined) {
      comparison.added.push(evalCase.id);
      continue;
    }
    if (earlier.passed === evalCase.passed) comparison.unchanged.push(evalCase.id);
    else (evalCase.passed ? comparison.improved : comparison.regressed).push(evalCase.id);
    comparison.scores.push({ id: evalCase.id, before: caseScore(earlier), after: caseScore(evalCase) });
  }
  for (const id of before.keys()) if (!now.has(id)) comparison.removed.push(id);
  return comparison;
}
