export { replaySuiteToJUnit } from './replay/junit-cases.js';
export { replay } from './replay/replay.js';
export { replaySuite } from './replay/suite.js';
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
