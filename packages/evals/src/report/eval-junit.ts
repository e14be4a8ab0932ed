import type { EvalCaseRun, EvalRunFile } from '@agent/protocol';
import type { JUnitCase, JUnitSuite } from '../types.js';

/**
 * An eval run as JUnit test suites (for `toJUnitXml`): one suite, one test case per dataset
 * case; a case that did not pass every run is a failure listing each failing run and score.
 */
export function evalRunToJUnit(run: EvalRunFile): JUnitSuite[] {
  const classname = `eval.${run.dataset.replace(/^.*[\\/]/, '').replace(/\.[^.]*$/, '') || 'inline'}`;
  const cases: JUnitCase[] = run.cases.map((evalCase) => {
    const timeMs = evalCase.runs.reduce((sum, entry) => sum + entry.durationMs, 0);
    const failing = evalCase.runs.filter((entry) => !entry.passed);
    if (failing.length === 0) return { name: evalCase.id, classname, timeMs };
    return {
      name: evalCase.id,
      classname,
      timeMs,
      failure: {
        message: `${failing.length} of ${evalCase.runs.length} run(s) failed`,
        type: 'eval',
        details: failing.map(describeRun).join('\n'),
      },
    };
  });
  return [{ name: `eval ${run.runId}`, timeMs: run.durationMs, cases }];
}

function describeRun(run: EvalCaseRun): string {
  if (run.error !== undefined) return `run ${run.repeat}: ${run.error}`;
  const failed = run.scores.filter((score) => !score.pass);
  const why = failed.map((score) => `${score.scorer}: ${score.reason ?? `score ${score.score}`}`);
  if (!run.success) why.unshift(`the session failed (${run.exitCode})`);
  return `run ${run.repeat}: ${why.join('; ')}`;
}
