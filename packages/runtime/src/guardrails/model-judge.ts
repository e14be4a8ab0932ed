import type { AgentResult, ExpectedOutput, Guardrail, GuardrailVerdict, JsonSchema } from '@agent/protocol';
import { isRecord } from '@agent/protocol/util';
import type { AgentDefinition } from '../agent-file/definition.js';
import type { GuardrailCommon } from './config.js';

// The model-judged guardrail: a judge agent file, run as a child session on the text to check,
// answers `{ verdict: pass | block, reason }` (docs/agent-files.md#model-judged-guardrails).

/** What a judge answers. */
export const VERDICT_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    verdict: { type: 'string', enum: ['pass', 'block'], description: 'block stops the run' },
    reason: {
      type: 'string',
      description: 'Which rule decided, in one short sentence; never quote the text judged.',
    },
  },
  required: ['verdict', 'reason'],
  additionalProperties: false,
};

/** Longest judge reason passed on (reasons reach clients). */
const MAX_REASON_CHARS = 300;

/**
 * Why `judge` cannot be a judge, or undefined: it takes the text as its prompt (`input` text)
 * and answers json; a schema of its own must ask for `verdict` and `reason` as the runtime's does.
 */
export function judgeShapeProblem(judge: AgentDefinition): string | undefined {
  if (judge.input.format !== 'text')
    return 'takes the text to judge as its prompt: its `input.format` must be text';
  const { output } = judge;
  if (!output.declared) return undefined;
  if (output.format !== 'json')
    return `must answer json { verdict: pass | block, reason } (its \`output.format\` is ${output.format}): remove \`output\` or make it json`;
  if (output.schema === undefined) return undefined;
  const properties = isRecord(output.schema.properties) ? output.schema.properties : {};
  const required = Array.isArray(output.schema.required) ? output.schema.required : [];
  const verdict = properties.verdict;
  const verdicts = isRecord(verdict) && Array.isArray(verdict.enum) ? verdict.enum : [];
  const fits =
    required.includes('verdict') &&
    required.includes('reason') &&
    verdicts.length > 0 &&
    verdicts.every((value) => value === 'pass' || value === 'block') &&
    isRecord(properties.reason);
  return fits
    ? undefined
    : 'has an output schema that does not ask for { verdict: pass | block, reason } (both required): remove `output.schema` (the runtime gives the judge its own) or fix it';
}

/** The judge's expected output: its own schema when it declares one (checked above), else the verdict's. */
export function judgeOutput(judge: AgentDefinition): ExpectedOutput {
  return { format: 'json', schema: judge.output.schema ?? VERDICT_SCHEMA };
}

/**
 * Runs the judge's session on a prompt, as sub-agents are run. Its accounting is the caller's
 * to report: in the verdict when the judge answered; `unclaimed` hands it back to the run when
 * no verdict will carry it (the judge failed).
 */
export type RunJudge = (
  prompt: string,
  signal: AbortSignal,
) => Promise<{ result: AgentResult; unclaimed: () => void }>;

/**
 * A guardrail whose check runs `run` (the judge's session) with the subject's text as the
 * prompt. The verdict carries the judge's accounting and op tree, so its cost is the calling
 * session's; a judge that fails or answers something else throws (the guardrail's `error`).
 */
export function modelJudgeGuardrail(
  common: GuardrailCommon,
  judge: AgentDefinition,
  run: RunJudge,
): Guardrail {
  const label = `judge ${judge.file}`;
  return {
    ...common,
    // A judge per streamed chunk would cost a model call each: by default it judges the report.
    ...(common.on === 'output' && common.phases === undefined ? { phases: ['report'] } : {}),
    check: async (subject, context): Promise<GuardrailVerdict> => {
      const { result, unclaimed } = await run(subject.text, context.signal);
      const fail = (message: string) => {
        unclaimed();
        return new Error(message);
      };
      const cost = {
        accounting: result.accounting,
        ...(result.opTree === undefined ? {} : { opTree: result.opTree }),
      };
      if (!result.success) throw fail(`${label} failed (${result.exitCode}): ${result.error}`);
      const answer = result.finalReport.content_json;
      if (!isRecord(answer) || (answer.verdict !== 'pass' && answer.verdict !== 'block'))
        throw fail(`${label} did not answer { verdict: pass | block, reason }`);
      const reason = clip(typeof answer.reason === 'string' ? answer.reason.trim() : '');
      if (answer.verdict === 'pass')
        return { verdict: 'pass', ...(reason === '' ? {} : { reason }), ...cost };
      return { verdict: 'block', reason: reason === '' ? `${label} blocked it` : reason, ...cost };
    },
  };
}

function clip(text: string): string {
  const line = text.replace(/\s+/g, ' ');
  return line.length <= MAX_REASON_CHARS ? line : `${line.slice(0, MAX_REASON_CHARS)}…`;
}
