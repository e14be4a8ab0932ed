import type { EvalCaseResult, EvalSummary } from '@agent/protocol';
import { passHatK } from './pass-hat-k.js';
import { addCost } from './run-metrics.js';

/** The run's totals: cases passed, pass^1 and pass^k, cost (runs and judges) and tokens. */
export function summarise(cases: readonly EvalCaseResult[], repeat: number): EvalSummary {
  const runs = cases.flatMap((evalCase) => evalCase.runs);
  const passed = cases.filter((evalCase) => evalCase.passed).length;
  let costUsd: number | undefined;
  for (const run of runs) {
    costUsd = addCost(costUsd, run.costUsd);
    for (const score of run.scores) costUsd = addCost(costUsd, score.costUsd);
  }
  return {
    cases: cases.length,
    passed,
    failed: cases.length - passed,
    passRate: runs.length === 0 ? 0 : runs.filter((run) => run.passed).length / runs.length,
    passHatK: passHatK(
      cases.map((evalCase) => ({
        passed: evalCase.runs.filter((run) => run.passed).length,
        runs: evalCase.runs.length,
      })),
      repeat,
    ),
    ...(costUsd === undefined ? {} : { costUsd }),
    inputTokens: runs.reduce((sum, run) => sum + run.inputTokens, 0),
    outputTokens: runs.reduce((sum, run) => sum + run.outputTokens, 0),
  };
}
