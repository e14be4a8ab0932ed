import type {
  AgentResult,
  EvalRunFile,
  JsonSchema,
  OutputFormat,
  ScoreResult,
  SessionRecord,
} from '@agent/protocol';
import type { ResolveOptions } from '@agent/runtime';

// ---------------------------------------------------------------- replay

/** What a replay requires to match its record: each mode includes the ones before it. */
export type CompareMode = 'report' | 'calls' | 'requests';

export const COMPARE_MODES: readonly CompareMode[] = ['report', 'calls', 'requests'];

export interface ReplayOptions {
  /** The agent file to run (a changed prompt, model, tools): default the record's `input.agentFile`. */
  agent?: string;
  /** Run the tools for real instead of answering each call from the record. */
  liveTools?: boolean;
  /** Default `report`. */
  compare?: CompareMode;
  /** How config layers are found (cwd, config path, home), as for `createAgentRunner`. */
  resolve?: ResolveOptions;
  /** Where the replayed run's record is written (default: a temporary directory, removed). */
  recordsDir?: string;
  signal?: AbortSignal;
  /** Bound on the whole replay in milliseconds (default 300000). */
  timeoutMs?: number;
}

/** A session as divergences name it: `<agentPath>#<ordinal>` (`lead#0`, `lead.helper#1`). */
export type SessionLabel = string;

/** One way the replayed run differs from its record. `message` is one line for a terminal. */
export type Divergence =
  | { kind: 'outcome'; message: string; expected: string; actual: string }
  | { kind: 'report'; message: string; diff: string }
  | {
      kind: 'call';
      message: string;
      session: SessionLabel;
      index: number;
      expected?: { name: string; arguments: Record<string, unknown> };
      actual?: { name: string; arguments: Record<string, unknown> };
    }
  /** A model request differs: `diff` is a unified diff of the two requests, normalised. */
  | { kind: 'request'; message: string; session: SessionLabel; call: number; diff: string }
  /** The replay asked for more model calls than the record has for that session. */
  | { kind: 'exhausted'; message: string; session: SessionLabel; call: number }
  /** A session the record has and the replay did not run, or the other way round. */
  | { kind: 'session'; message: string; session: SessionLabel };

export interface ReplayResult {
  match: boolean;
  compare: CompareMode;
  divergences: Divergence[];
  /** The replayed run's result and record. */
  result: AgentResult;
  record: SessionRecord;
  durationMs: number;
}

export interface ReplaySuiteOptions extends ReplayOptions {
  /** Records replayed at once (default 2). */
  concurrency?: number;
}

/** `replaySuite(dir)`: each record file of a directory replayed. */
export interface ReplaySuiteResult {
  directory: string;
  compare: CompareMode;
  entries: ReplaySuiteEntry[];
  matched: number;
  diverged: number;
  /** Records that could not be replayed (unreadable, version 1, payloads dropped, ...). */
  errors: number;
  durationMs: number;
}

export interface ReplaySuiteEntry {
  file: string;
  sessionId?: string;
  result?: ReplayResult;
  error?: string;
}

// ---------------------------------------------------------------- evals

export interface Budgets {
  costUsd?: number;
  /** Input plus output tokens of the run (sub-agents included). */
  tokens?: number;
  turns?: number;
  latencyMs?: number;
}

/** One case of a dataset. */
export interface EvalCase {
  /** Letters, digits, `.`, `_`, `-` (1-100); default `case-<line or index>`. */
  id: string;
  /** The prompt, or the JSON input of an agent with `input.format: json`. */
  input: string | Record<string, unknown>;
  /** What the scorers compare with, when they compare. */
  expected?: unknown;
  settings?: EvalCaseSettings;
}

export interface EvalCaseSettings {
  format?: OutputFormat;
  schema?: JsonSchema;
  maxTurns?: number;
  budgets?: Budgets;
  /** Scorers for this case only, added to the dataset's. */
  scorers?: ScorerSpec[];
}

/** What a scorer sees of one run. */
export interface ScorerContext {
  case: EvalCase;
  result: AgentResult;
  /** The report's payload: `content_json` for JSON reports, else `content`; undefined without one. */
  report: unknown;
  signal: AbortSignal;
}

export interface Scorer {
  name: string;
  score(context: ScorerContext): Omit<ScoreResult, 'scorer'> | Promise<Omit<ScoreResult, 'scorer'>>;
}

/**
 * A built-in scorer as a dataset writes it (`scorers:` in YAML, or per case). `path` is a
 * JMESPath expression into the report (default: the whole report); `value` defaults to the
 * case's `expected`.
 */
export type ScorerSpec =
  | { type: 'schema'; schema?: JsonSchema }
  | { type: 'equals'; path?: string; value?: unknown }
  | { type: 'contains'; path?: string; value?: string; ignoreCase?: boolean }
  | { type: 'regex'; path?: string; pattern: string; ignoreCase?: boolean }
  | { type: 'jmespath'; expression: string; value?: unknown }
  | { type: 'numeric'; path?: string; value?: number; tolerance?: number; relTolerance?: number }
  | { type: 'judge'; agent: string; criteria?: string; threshold?: number }
  | ({ type: 'budget' } & Budgets);

export interface EvaluateOptions {
  /** The agent file every case runs. */
  agent: string;
  /** The cases, or a dataset file (`.jsonl`, `.yaml`, `.yml`). */
  cases: readonly EvalCase[] | string;
  /** Scorers for every case, added to the dataset's own. */
  scorers?: readonly (Scorer | ScorerSpec)[];
  /** Cases run at once (default 2, at most 64). */
  concurrency?: number;
  /** Runs per case, for pass^k (default 1, at most 100). */
  repeat?: number;
  budgets?: Budgets;
  /** Where `<runId>/results.json` and `<runId>/records/` go (default: nothing written). */
  outDir?: string;
  /** Default: a time-ordered id. */
  runId?: string;
  /** An earlier run (its results file or its contents) to compare with. */
  baseline?: EvalRunFile | string;
  resolve?: ResolveOptions;
  signal?: AbortSignal;
  /** Bound on each run in milliseconds (default 300000). */
  caseTimeoutMs?: number;
  /** Called as each case finishes (for progress lines). */
  onCase?(result: EvalRunFile['cases'][number]): void;
}

// ---------------------------------------------------------------- JUnit

export interface JUnitSuite {
  name: string;
  timeMs: number;
  cases: JUnitCase[];
}

export interface JUnitCase {
  name: string;
  classname: string;
  timeMs: number;
  failure?: { message: string; type?: string; details?: string };
  error?: { message: string; type?: string; details?: string };
  skipped?: string;
  output?: string;
}
