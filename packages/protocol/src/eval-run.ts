import { isRecord } from './util/guards.js';

/**
 * The results of one `agent eval` run (`evaluate()` of `@agent/evals`), as written to
 * `<out>/<runId>/results.json`: what `--baseline` compares against and the viewer's eval page
 * shows (docs/evals.md). A reader refuses a newer version.
 */
export const EVAL_RUN_VERSION = 1;

export const EVAL_RUN_KIND = 'agent-eval-run';

export interface EvalRunFile {
  kind: typeof EVAL_RUN_KIND;
  version: number;
  /** Letters, digits, `.`, `_`, `-` (1-100): also the run's directory name. */
  runId: string;
  /** The agent file the cases ran (as given) and the dataset (a path, or `inline`). */
  agent: string;
  dataset: string;
  /** Epoch milliseconds. */
  startedAt: number;
  endedAt: number;
  durationMs: number;
  /** Runs per case (`--repeat k`) and cases run at once. */
  repeat: number;
  concurrency: number;
  summary: EvalSummary;
  cases: EvalCaseResult[];
  /** Set when the run was compared with an earlier one (`--baseline`). */
  baseline?: BaselineComparison;
}

export interface EvalSummary {
  cases: number;
  /** Cases whose every run passed. */
  passed: number;
  failed: number;
  /** pass^1: the share of all runs that passed (0-1). */
  passRate: number;
  /** pass^k (tau-bench) for k = `repeat`: the mean over cases of C(c,k)/C(n,k) (0-1). */
  passHatK: number;
  /** Model cost of every run and every model-judged scorer, when prices are known. */
  costUsd?: number;
  inputTokens: number;
  outputTokens: number;
}

export interface EvalCaseResult {
  id: string;
  /** The prompt as sent (long ones cut for the file), and the expected value if the case has one. */
  input: string;
  expected?: unknown;
  /** True when every run passed. */
  passed: boolean;
  runs: EvalCaseRun[];
}

export interface EvalCaseRun {
  /** 0-based repeat index. */
  repeat: number;
  passed: boolean;
  /** The session's own outcome. */
  success: boolean;
  exitCode: string;
  sessionId?: string;
  /** The session record, relative to the run's directory (`records/<sessionId>.json.gz`). */
  record?: string;
  /** The final report (text formats: `content`; JSON: `content_json`). */
  report?: { format: string; status?: string; content?: string; content_json?: unknown };
  scores: ScoreResult[];
  costUsd?: number;
  inputTokens: number;
  outputTokens: number;
  turns: number;
  durationMs: number;
  /** Why the run could not be scored (it threw, it timed out), when it could not. */
  error?: string;
}

/** One scorer's verdict on one run. */
export interface ScoreResult {
  scorer: string;
  /** 0-1. */
  score: number;
  pass: boolean;
  reason?: string;
  /** A model-judged scorer's own cost, accounted apart from the agent's. */
  costUsd?: number;
}

/** How a run compares with a baseline run, case by case (matched by case id). */
export interface BaselineComparison {
  runId: string;
  /** Failed in the baseline, passed now. */
  improved: string[];
  /** Passed in the baseline, failed now: a regression (`agent eval` exits 13). */
  regressed: string[];
  unchanged: string[];
  /** Cases only in this run, and only in the baseline. */
  added: string[];
  removed: string[];
  /** Per-case mean score before and after, for the cases both runs have. */
  scores: { id: string; before: number; after: number }[];
}

/**
 * What makes `value` not an eval run this version reads (another kind of JSON, a newer
 * version, no run id, summary or cases, a case without id, passed or runs), or undefined.
 * Every reader of a results file checks it here.
 */
export function evalRunProblem(value: unknown): string | undefined {
  if (!isRecord(value) || value.kind !== EVAL_RUN_KIND)
    return `not an eval run: expected JSON with "kind": "${EVAL_RUN_KIND}"`;
  const { version } = value;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1)
    return 'not an eval run: "version" is not a positive integer';
  if (version > EVAL_RUN_VERSION)
    return `eval run version ${version} is newer than this version reads (up to ${EVAL_RUN_VERSION}): upgrade to read it`;
  if (typeof value.runId !== 'string' || !isRecord(value.summary) || !Array.isArray(value.cases))
    return 'not an eval run: "runId", "summary" or "cases" is missing';
  for (const evalCase of value.cases)
    if (
      !isRecord(evalCase) ||
      typeof evalCase.id !== 'string' ||
      typeof evalCase.passed !== 'boolean' ||
      !Array.isArray(evalCase.runs)
    )
      return 'not an eval run: a case has no "id", "passed" or "runs"';
  return undefined;
}
