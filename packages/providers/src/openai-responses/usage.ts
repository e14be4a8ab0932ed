import type { StopReason, TokenUsage } from '@agent/protocol';
import { finiteNumber } from '@agent/protocol/util';
import { reportedCost } from '../usage-cost.js';

/** Responses usage: input includes cached tokens, output includes reasoning tokens. */
export function responsesUsage(raw: Record<string, unknown>): TokenUsage {
  const input = finiteNumber(raw.input_tokens) ?? 0;
  const output = finiteNumber(raw.output_tokens) ?? 0;
  const usage: TokenUsage = {
    inputTokens: input,
    outputTokens: output,
    totalTokens: finiteNumber(raw.total_tokens) ?? input + output,
  };
  const cached = finiteNumber(
    (raw.input_tokens_details as Record<string, unknown> | null | undefined)?.cached_tokens,
  );
  const reasoning = finiteNumber(
    (raw.output_tokens_details as Record<string, unknown> | null | undefined)?.reasoning_tokens,
  );
  if (cached !== undefined) usage.cachedTokens = cached;
  if (reasoning !== undefined) usage.reasoningTokens = reasoning;
  return Object.assign(usage, reportedCost(raw));
}

/** The stop reason from the response status and, when incomplete, its reason. */
export function responsesStopReason(
  status: string | undefined,
  incompleteReason: string | undefined,
  hasToolCalls: boolean,
  refused: boolean,
): StopReason {
  if (refused) return 'refusal';
  if (status === 'incomplete') {
    if (incompleteReason === 'max_output_tokens') return 'length';
    if (incompleteReason === 'content_filter') return 'content_filter';
    return 'other';
  }
  if (status !== 'completed') return 'other';
  return hasToolCalls ? 'tool_calls' : 'stop';
}
