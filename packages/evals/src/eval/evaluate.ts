import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  EVAL_RUN_KIND,
  EVAL_RUN_VERSION,
  type EvalCaseResult,
  type EvalCaseRun,
  type EvalRunFile,
} from '@agent/protocol';
import { type AgentRunner, createAgentRunner } from '@agent/runtime';
import pLimit from 'p-limit';
import type { EvaluateOptions, Scorer } from '../types.js';
import { compareWithBaseline } from './baseline.js';
import {
  CASE_ID,
  checkedBudgets,
  type Dataset,
  type DatasetCase,
  inlineDataset,
  loadDataset,
} from './dataset.js';
import { EvalInputError } from './errors.js';
import { checkedEvalRun, readEvalRun, writeEvalRun } from './results-file.js';
import { runCase } from './run-case.js';
import type { ScorerEnv } from './scorers/env.js';
import { createScorer } from './scorers/index.js';
import { summarise } from './summary.js';

const DEFAULT_CONCURRENCY = 2;
const MAX_CONCURRENCY = 64;
const MAX_REPEAT = 100;
const DEFAULT_CASE_TIMEOUT_MS = 300_000;
/** Longest prompt kept in the results file. */
const MAX_INPUT_SHOWN = 2000;
/** Eval runs never answer from the response cache: each run must ask the model. */
const NO_RESPONSE_CACHE = { cache: 'off' };

/**
 * Runs every case of a dataset against an agent file, `repeat` times, `concurrency` at once,
 * each run a full session (recorded under `<outDir>/<runId>/records` when `outDir` is set),
 * scores each run, and returns the results (also written to `<outDir>/<runId>/results.json`).
 * Bad input (dataset, scorer, baseline) throws `EvalInputError` before any case runs; a run
 * that fails, throws or times out is a failed run, never a thrown error.
 */
export async function evaluate(options: EvaluateOptions): Promise<EvalRunFile> {
  const concurrency = bounded(options.concurrency ?? DEFAULT_CONCURRENCY, MAX_CONCURRENCY, 'concurrency');
  const repeat = bounded(options.repeat ?? 1, MAX_REPEAT, 'repeat');
  const runId = options.runId ?? timeOrderedId();
  if (!CASE_ID.test(runId))
    throw new EvalInputError(`runId ${JSON.stringify(runId)} must be 1-100 letters, digits, ".", "_" or "-"`);
  const cwd = options.resolve?.cwd ?? process.cwd();
  const dataset =
    typeof options.cases === 'string'
      ? await loadDataset(resolve(cwd, options.cases))
      : inlineDataset(options.cases, cwd);
  const baseline = await loadBaseline(options.baseline);
  const runDir = options.outDir === undefined ? undefined : resolve(cwd, options.outDir, runId);
  const sessionsDir = runDir === undefined ? undefined : join(runDir, 'records');
  const runners = new Runners({ ...options.resolve, ...(sessionsDir === undefined ? {} : { sessionsDir }) });
  const startedAt = Date.now();
  let cases: EvalCaseResult[];
  try {
    cases = await runAll(dataset, options, runners, { repeat, concurrency, cwd });
  } finally {
    // Closing flushes the session records, written in the background.
    await runners.close();
  }
  if (sessionsDir !== undefined) linkRecords(cases, sessionsDir);
  const endedAt = Date.now();
  const run: EvalRunFile = {
    kind: EVAL_RUN_KIND,
    version: EVAL_RUN_VERSION,
    runId,
    agent: options.agent,
    dataset: dataset.source,
    startedAt,
    endedAt,
    durationMs: endedAt - startedAt,
    repeat,
    concurrency,
    summary: summarise(cases, repeat),
    cases,
    ...(baseline === undefined ? {} : { baseline: compareWithBaseline(cases, baseline) }),
  };
  if (runDir !== undefined) await writeEvalRun(runDir, run);
  return run;
}

/** Every run of every case, `concurrency` at once; `onCase` as each case's last run ends. */
async function runAll(
  dataset: Dataset,
  options: EvaluateOptions,
  runners: Runners,
  { repeat, concurrency, cwd }: { repeat: number; concurrency: number; cwd: string },
): Promise<EvalCaseResult[]> {
  const runner = await runners.get(resolve(cwd, options.agent));
  const env: ScorerEnv = {
    ...(runner.summary.outputSchema === undefined ? {} : { agentSchema: runner.summary.outputSchema }),
    baseDir: dataset.baseDir,
    judge: (file) => runners.get(file),
  };
  const scorersOf = scorerTable(dataset, options, env);
  const limit = pLimit(concurrency);
  return Promise.all(
    dataset.cases.map(async (evalCase) => {
      const runs = await Promise.all(
        Array.from({ length: repeat }, (_, index) =>
          limit(() =>
            runCase(evalCase, {
              runner,
              scorers: scorersOf(evalCase),
              repeat: index,
              timeoutMs: options.caseTimeoutMs ?? DEFAULT_CASE_TIMEOUT_MS,
              ...(options.signal === undefined ? {} : { signal: options.signal }),
            }),
          ),
        ),
      );
      const result = caseResult(evalCase, runs);
      options.onCase?.(result);
      return result;
    }),
  );
}

/** Each run's record, relative to the run's directory, when it was written. */
function linkRecords(cases: readonly EvalCaseResult[], sessionsDir: string): void {
  for (const run of cases.flatMap((evalCase) => evalCase.runs)) {
    if (run.sessionId === undefined) continue;
    const file = `${run.sessionId}.json.gz`;
    if (existsSync(join(sessionsDir, file))) run.record = `records/${file}`;
  }
}

function bounded(value: number, max: number, name: string): number {
  if (!Number.isInteger(value) || value < 1 || value > max)
    throw new EvalInputError(`${name} must be an integer from 1 to ${max}, got ${value}`);
  return value;
}

/** `2026-11-29T11-44-00-123Z-a1b2`: sorts by time, unique enough for one machine. */
function timeOrderedId(): string {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  return `${stamp}-${Math.random().toString(16).slice(2, 6)}`;
}

async function loadBaseline(baseline: EvaluateOptions['baseline']): Promise<EvalRunFile | undefined> {
  if (baseline === undefined) return undefined;
  return typeof baseline === 'string' ? readEvalRun(baseline) : checkedEvalRun(baseline, 'the baseline');
}

/**
 * Every scorer built before any case runs (a bad spec is an error now, naming its place): the
 * dataset's and the caller's for every case, each case's own, and a budget scorer where
 * budgets are set (the case's beat the dataset's, which beat the caller's).
 */
function scorerTable(
  dataset: Dataset,
  options: EvaluateOptions,
  env: ScorerEnv,
): (evalCase: DatasetCase) => Scorer[] {
  const common = [
    ...dataset.scorers.map(({ spec, where }) => createScorer(spec, env, where)),
    ...(options.scorers ?? []).map((spec, index) => createScorer(spec, env, `scorers[${index}]`)),
  ];
  const optionBudgets = options.budgets === undefined ? {} : checkedBudgets(options.budgets, 'budgets');
  const table = new Map<string, Scorer[]>();
  for (const evalCase of dataset.cases) {
    const budgets = { ...optionBudgets, ...dataset.budgets, ...evalCase.settings?.budgets };
    const budget =
      Object.keys(budgets).length === 0
        ? []
        : [createScorer({ type: 'budget', ...budgets }, env, `${evalCase.where}: budgets`)];
    const own = evalCase.placedScorers.map(({ spec, where }) => createScorer(spec, env, where));
    table.set(evalCase.id, [...common, ...own, ...budget]);
  }
  return (evalCase) => table.get(evalCase.id) ?? common;
}

function caseResult(evalCase: DatasetCase, runs: EvalCaseRun[]): EvalCaseResult {
  const input = typeof evalCase.input === 'string' ? evalCase.input : JSON.stringify(evalCase.input);
  return {
    id: evalCase.id,
    input: input.length <= MAX_INPUT_SHOWN ? input : `${input.slice(0, MAX_INPUT_SHOWN)}…`,
    ...(evalCase.expected === undefined ? {} : { expected: evalCase.expected }),
    passed: runs.every((run) => run.passed),
    runs,
  };
}

/** One runner per agent file (the agent's and each judge's), opened once, closed together. */
class Runners {
  readonly #open = new Map<string, Promise<AgentRunner>>();

  constructor(private readonly options: Parameters<typeof createAgentRunner>[1]) {}

  get(file: string): Promise<AgentRunner> {
    let runner = this.#open.get(file);
    if (runner === undefined) {
      runner = createAgentRunner(file, { ...this.options, overrides: NO_RESPONSE_CACHE });
      this.#open.set(file, runner);
    }
    return runner;
  }

  async close(): Promise<void> {
    const runners = await Promise.allSettled(this.#open.values());
    await Promise.all(
      runners.map((entry) => (entry.status === 'fulfilled' ? entry.value.close() : undefined)),
    );
  }
}
