export { compareWithBaseline } from './eval/baseline.js';
export {
  type Dataset,
  type DatasetCase,
  loadDataset,
  MAX_DATASET_BYTES,
  MAX_DATASET_CASES,
} from './eval/dataset.js';
export { EvalInputError } from './eval/errors.js';
export { evaluate } from './eval/evaluate.js';
export { passHatK } from './eval/pass-hat-k.js';
export { readEvalRun, writeEvalRun } from './eval/results-file.js';
export { SCORER_TYPES } from './eval/scorers/index.js';
export { JUDGE_SCORE_SCHEMA } from './eval/scorers/judge.js';
export { replaySuiteToJUnit } from './replay/junit-cases.js';
export { replay } from './replay/replay.js';
export { replaySuite } from './replay/suite.js';
export { evalRunToJUnit } from './report/eval-junit.js';
export { toJUnitXml } from './report/junit.js';
export type {
  Budgets,
  CompareMode,
  Divergence,
  EvalCase,
  EvalCaseSettings,
  EvaluateOptions,
  JUnitCase,
  JUnitSuite,
  ReplayOptions,
  ReplayResult,
  ReplaySuiteEntry,
  ReplaySuiteOptions,
  ReplaySuiteResult,
  Scorer,
  ScorerContext,
  ScorerSpec,
  SessionLabel,
} from './types.js';
export { COMPARE_MODES } from './types.js';
