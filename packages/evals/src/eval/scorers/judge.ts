import { isAbsolute, resolve } from 'node:path';
import type { JsonSchema } from '@agent/protocol';
import { errorMessage, isRecord } from '@agent/protocol/util';
import type { Scorer, ScorerContext } from '../../types.js';
import { runMetrics } from '../run-metrics.js';
import type { ScorerEnv } from './env.js';
import { onlyKeys, optionalNumber, optionalString, requiredString, type SpecFields } from './spec-fields.js';

/** What a judge agent must answer (its run is asked for this JSON). */
export const JUDGE_SCORE_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    score: { type: 'number', minimum: 0, maximum: 1 },
    reason: { type: 'string' },
  },
  required: ['score', 'reason'],
  additionalProperties: false,
};

const DEFAULT_THRESHOLD = 0.5;
const DEFAULT_CRITERIA =
  'The answer is correct and complete for the input, and agrees with the expected value when one is given.';
/** Longest part of the judge's prompt taken from the run (input, expected, report), and of its reason. */
const MAX_PART_CHARS = 20_000;
const MAX_REASON_CHARS = 300;

/**
 * `judge`: a judge agent file scores the report from 0 to 1 with a reason (its run asked for
 * `{score, reason}` as JSON); it passes at `threshold` (default 0.5). The judge's own cost is
 * the score's `costUsd`, apart from the agent's.
 */
export function judgeScorer(spec: SpecFields, env: ScorerEnv): Scorer {
  onlyKeys(spec, ['agent', 'criteria', 'threshold']);
  const agent = requiredString(spec, 'agent');
  const file = isAbsolute(agent) ? agent : resolve(env.baseDir, agent);
  const criteria = optionalString(spec, 'criteria') ?? DEFAULT_CRITERIA;
  const threshold = optionalNumber(spec, 'threshold', 0, 1) ?? DEFAULT_THRESHOLD;
  return {
    name: 'judge',
    async score(context) {
      const runner = await env.judge(file);
      const result = await runner.run(judgePrompt(context, criteria), {
        format: 'json',
        schema: JUDGE_SCORE_SCHEMA,
        signal: context.signal,
      });
      const { costUsd } = runMetrics(result);
      const cost = costUsd === undefined ? {} : { costUsd };
      const payload = result.finalReport?.content_json;
      if (!result.success || !isRecord(payload) || typeof payload.score !== 'number')
        return {
          score: 0,
          pass: false,
          reason: `the judge gave no score: ${result.error ?? result.exitCode}`,
          ...cost,
        };
      const score = Math.min(1, Math.max(0, payload.score));
      const reason = typeof payload.reason === 'string' ? clip(payload.reason, MAX_REASON_CHARS) : '';
      return { score, pass: score >= threshold, reason, ...cost };
    },
  };
}

/** The judge's prompt: the criteria, the case's input and expected value, and the report. */
export function judgePrompt({ case: evalCase, report }: ScorerContext, criteria: string): string {
  const part = (value: unknown) => clip(typeof value === 'string' ? value : safeJson(value), MAX_PART_CHARS);
  return [
    'Grade one answer of an agent. Give a score from 0 (wrong) to 1 (right) and a one-sentence reason.',
    `## Criteria\n${criteria}`,
    `## Input\n${part(evalCase.input)}`,
    evalCase.expected === undefined ? '## Expected\n(none given)' : `## Expected\n${part(evalCase.expected)}`,
    report === undefined ? '## Answer\n(the agent gave no report)' : `## Answer\n${part(report)}`,
  ].join('\n\n');
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch (error) {
    return `(not JSON: ${errorMessage(error)})`;
  }
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}
