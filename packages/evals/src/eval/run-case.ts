import type { AgentResult, EvalCaseRun, ScoreResult } from '@agent/protocol';
import { errorMessage, isRecord } from '@agent/protocol/util';
import type { AgentRunner } from '@agent/runtime';
import type { Scorer } from '../types.js';
import type { DatasetCase } from './dataset.js';
import { runMetrics } from './run-metrics.js';

export interface RunCaseOptions {
  runner: AgentRunner;
  scorers: readonly Scorer[];
  repeat: number;
  timeoutMs: number;
  signal?: AbortSignal;
}

/**
 * One run of one case: a full session, then every scorer. Never throws: a run that throws or
 * times out is a failed run with `error`, and a scorer that throws is a failed score.
 */
export async function runCase(evalCase: DatasetCase, options: RunCaseOptions): Promise<EvalCaseRun> {
  const started = Date.now();
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal === undefined ? timeout : AbortSignal.any([options.signal, timeout]);
  let result: AgentResult;
  try {
    result = await options.runner.run(promptOf(evalCase), { ...runOptions(evalCase), signal });
  } catch (error) {
    return failedRun(options.repeat, Date.now() - started, `the run threw: ${errorMessage(error)}`);
  }
  const metrics = runMetrics(result, Date.now() - started);
  const base = {
    repeat: options.repeat,
    success: result.success,
    exitCode: result.exitCode,
    sessionId: result.sessionId,
    ...(result.finalReport === undefined ? {} : { report: reportOf(result) }),
    ...metrics,
  };
  if (timeout.aborted)
    return { ...base, passed: false, scores: [], error: `timed out after ${options.timeoutMs} ms` };
  const report = reportPayload(result);
  const scores = await Promise.all(
    options.scorers.map((scorer) => score(scorer, { case: evalCase, result, report, signal })),
  );
  const passed = result.success && scores.every((entry) => entry.pass);
  return { ...base, passed, scores };
}

function promptOf(evalCase: DatasetCase): string {
  return typeof evalCase.input === 'string' ? evalCase.input : JSON.stringify(evalCase.input);
}

function runOptions({ settings }: DatasetCase) {
  return {
    ...(settings?.format === undefined ? {} : { format: settings.format }),
    ...(settings?.schema === undefined ? {} : { schema: settings.schema }),
    ...(settings?.maxTurns === undefined ? {} : { maxTurns: settings.maxTurns }),
  };
}

/** What scorers look at: the JSON payload of a JSON report, else its text. */
function reportPayload(result: AgentResult): unknown {
  const report = result.finalReport;
  if (report === undefined) return undefined;
  return report.content_json ?? report.content;
}

function reportOf(result: AgentResult): NonNullable<EvalCaseRun['report']> {
  const report = result.finalReport!;
  return {
    format: report.format,
    status: report.status,
    ...(report.content === undefined ? {} : { content: report.content }),
    ...(report.content_json === undefined ? {} : { content_json: report.content_json }),
  };
}

async function score(scorer: Scorer, context: Parameters<Scorer['score']>[0]): Promise<ScoreResult> {
  try {
    const verdict = await scorer.score(context);
    if (!isRecord(verdict) || typeof verdict.score !== 'number' || typeof verdict.pass !== 'boolean')
      return { scorer: scorer.name, score: 0, pass: false, reason: 'the scorer gave no {score, pass}' };
    return { scorer: scorer.name, ...verdict };
  } catch (error) {
    return {
      scorer: scorer.name,
      score: 0,
      pass: false,
      reason: `the scorer failed: ${errorMessage(error)}`,
    };
  }
}

function failedRun(repeat: number, durationMs: number, error: string): EvalCaseRun {
  return {
    repeat,
    passed: false,
    success: false,
    exitCode: 'EXIT-UNCAUGHT-EXCEPTION',
    scores: [],
    inputTokens: 0,
    outputTokens: 0,
    turns: 0,
    durationMs,
    error,
  };
}
