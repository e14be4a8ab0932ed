import type { StopReason, TokenUsage } from '@agent/protocol';
import { finiteNumber } from '@agent/protocol/util';

/** Anthropic usage counters as they arrive; later events (message_delta) override earlier ones. */
export class AnthropicUsage {
  private input: number | undefined;
  private output: number | undefined;
  private cacheRead: number | undefined;
  private cacheWrite: number | undefined;
  private thinking: number | undefined;

  absorb(raw: Record<string, unknown> | null | undefined): void {
    if (!raw) return;
    this.input = finiteNumber(raw.input_tokens) ?? this.input;
    this.output = finiteNumber(raw.output_tokens) ?? this.output;
    this.cacheRead = finiteNumber(raw.cache_read_input_tokens) ?? this.cacheRead;
    this.cacheWrite = finiteNumber(raw.cache_creation_input_tokens) ?? this.cacheWrite;
    const details = raw.output_tokens_details as Record<string, unknown> | null | undefined;
    this.thinking = finiteNumber(details?.thinking_tokens) ?? this.thinking;
  }

  get reported(): boolean {
    return this.input !== undefined || this.output !== undefined;
  }

  /**
   * Protocol usage. Anthropic's `input_tokens` excludes cache reads and writes; the protocol's
   * `inputTokens` includes them (`cachedTokens` and `cacheWriteTokens` say how many).
   */
  toUsage(): TokenUsage {
    const input = (this.input ?? 0) + (this.cacheRead ?? 0) + (this.cacheWrite ?? 0);
    const output = this.output ?? 0;
    const usage: TokenUsage = { inputTokens: input, outputTokens: output, totalTokens: input + output };
    if (this.cacheRead !== undefined) usage.cachedTokens = this.cacheRead;
    if (this.cacheWrite !== undefined) usage.cacheWriteTokens = this.cacheWrite;
    if (this.thinking !== undefined) usage.reasoningTokens = this.thinking;
    return usage;
  }
}

const STOP_REASONS = new Map<string, StopReason>([
  ['end_turn', 'stop'],
  ['stop_sequence', 'stop'],
  ['max_tokens', 'length'],
  ['model_context_window_exceeded', 'length'],
  ['tool_use', 'tool_calls'],
  ['refusal', 'refusal'],
]);

/** `pause_turn` and anything new map to `other`; the raw word stays in `rawStopReason`. */
export function anthropicStopReason(raw: string | undefined, hasToolCalls: boolean): StopReason {
  const reason = (raw && STOP_REASONS.get(raw)) || 'other';
  return reason === 'stop' && hasToolCalls ? 'tool_calls' : reason;
}
