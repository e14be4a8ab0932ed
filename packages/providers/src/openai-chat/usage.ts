import type { StopReason, TokenUsage } from '@agent/protocol';
import { finiteNumber } from '@agent/protocol/util';
import { reportedCost } from '../usage-cost.js';

function detail(raw: Record<string, unknown>, object: string, field: string): number | undefined {
  const details = raw[object] as Record<string, unknown> | null | undefined;
  return finiteNumber(details?.[field]);
}

/**
 * Chat Completions usage as protocol usage. Cached input comes from `prompt_tokens_details`
 * (or DeepSeek's `prompt_cache_hit_tokens`), reasoning from `completion_tokens_details`.
 * xAI counts reasoning outside `completion_tokens` (total = prompt + completion + reasoning);
 * it is added back so `outputTokens` always includes reasoning, as the protocol says.
 */
export function chatUsage(raw: Record<string, unknown>): TokenUsage {
  const input = finiteNumber(raw.prompt_tokens) ?? 0;
  const completion = finiteNumber(raw.completion_tokens) ?? 0;
  const total = finiteNumber(raw.total_tokens);
  const cached =
    detail(raw, 'prompt_tokens_details', 'cached_tokens') ?? finiteNumber(raw.prompt_cache_hit_tokens);
  const reasoning = detail(raw, 'completion_tokens_details', 'reasoning_tokens');
  const reasoningOutside =
    reasoning !== undefined &&
    reasoning > 0 &&
    total !== undefined &&
    input + completion !== total &&
    input + completion + reasoning === total;
  const output = reasoningOutside ? completion + reasoning : completion;
  const usage: TokenUsage = {
    inputTokens: input,
    outputTokens: output,
    totalTokens: total ?? input + output,
  };
  if (cached !== undefined) usage.cachedTokens = cached;
  if (reasoning !== undefined) usage.reasoningTokens = reasoning;
  return Object.assign(usage, reportedCost(raw));
}

const STOP_REASONS = new Map<string, StopReason>([
  ['stop', 'stop'],
  ['eos', 'stop'],
  ['end_turn', 'stop'],
  ['stop_sequence', 'stop'],
  ['length', 'length'],
  ['max_tokens', 'length'],
  ['model_length', 'length'],
  ['tool_calls', 'tool_calls'],
  ['function_call', 'tool_calls'],
  ['tool_use', 'tool_calls'],
  ['content_filter', 'content_filter'],
  ['refusal', 'refusal'],
]);

/**
 * The normalised stop reason. Servers that say `stop` after calling tools (older Ollama, some
 * gateways) get `tool_calls`, so the session runs the calls; a refusal delta makes it `refusal`.
 */
export function chatStopReason(raw: string | undefined, hasToolCalls: boolean, refused: boolean): StopReason {
  if (refused) return 'refusal';
  const reason = (raw && STOP_REASONS.get(raw)) || 'other';
  return reason === 'stop' && hasToolCalls ? 'tool_calls' : reason;
}
