import type { ConversationMessage, ExpectedOutput, ModelTarget, ToolDefinition } from '@agent/protocol';
import { checkSchema, schemaShapeProblems } from '@agent/schema';
import type { TurnNotices } from '../loop/turn-notice.js';
import type { ContextGuard } from './context-guard.js';
import type { TokenEstimator } from './token-estimator.js';

export interface SchemaPreflight {
  expected: ExpectedOutput;
  /** The first request's conversation: system prompt, history, user prompt. */
  messages: readonly ConversationMessage[];
  targets: readonly ModelTarget[];
  estimator: TokenEstimator;
  guard: ContextGuard;
  /** The session's notices: the first turn's is rendered here and counted once. */
  notices: TurnNotices;
  nonce: string;
  maxTurns: number;
  maxRetries: number;
  /** `report_back`, when the session has it: sent on the final turn too, with the schema again. */
  finalTools?: readonly ToolDefinition[];
}

/**
 * Why the session must not start with this output schema, or undefined when it may. Runs
 * before any model call, in the order that keeps each step safe: the schema's shape (depth
 * walked without recursion, cycles, `$schema`), then whether the first request, with the
 * schema in its notice, fits the smallest context window of the targets (a final turn carries
 * no tools but `report_back`, so only that one is counted: the others can be dropped, the
 * schema cannot), then the size
 * limit, the meta-schema and Ajv's compile with RE2 patterns.
 */
export function outputSchemaProblem(input: SchemaPreflight): string | undefined {
  const schema = input.expected.schema;
  if (schema === undefined) return undefined;
  const shape = schemaShapeProblems(schema, { maxBytes: Number.POSITIVE_INFINITY });
  if (shape.length > 0) return `the output schema is not a usable JSON Schema: ${shape.join('; ')}`;
  const fit = fitProblem(input);
  if (fit !== undefined) return fit;
  const check = checkSchema(schema, { label: 'the output schema' });
  return check.ok ? undefined : check.message;
}

function fitProblem(input: SchemaPreflight): string | undefined {
  const { estimator, guard } = input;
  const notice = input.notices.render({
    nonce: input.nonce,
    turn: 1,
    maxTurns: input.maxTurns,
    attempt: 1,
    maxAttempts: input.maxRetries,
    contextPercent: 0,
    expected: input.expected,
    forcedFinal: undefined,
    allowedTools: [],
    reportBack: (input.finalTools ?? []).length > 0,
  });
  let smallest: { target: ModelTarget; limit: number } | undefined;
  for (const target of input.targets) {
    const limit = guard.limitFor(target);
    if (smallest === undefined || limit < smallest.limit) smallest = { target, limit };
  }
  if (smallest === undefined) return undefined;
  const finalTools = input.finalTools ?? [];
  // Upper bounds first: when they fit, nothing is counted exactly.
  const bound =
    estimator.corrected(notice.rawTokensBound) +
    estimator.corrected(estimator.rawToolsBound(finalTools)) +
    estimator.corrected(estimator.rawMessagesBound(input.messages));
  if (bound <= smallest.limit) return undefined;
  const schemaTokens = estimator.corrected(notice.rawTokens) + estimator.tools(finalTools);
  const promptTokens = estimator.corrected(estimator.rawMessages(input.messages));
  if (promptTokens + schemaTokens <= smallest.limit) return undefined;
  const { target, limit } = smallest;
  const model = `${target.client.provider}/${target.client.model}`;
  return (
    `the output schema (about ${schemaTokens} tokens with the turn notice that carries it) and the prompt ` +
    `(about ${promptTokens} tokens) do not fit the context window of ${model}: ${guard.windowFor(target)} tokens, ` +
    `${limit} usable after the reserve for the answer; send a smaller schema or a shorter prompt`
  );
}
