import type { ToolCall } from './messages.js';

/** Normalised reason the model stopped. `rawStopReason` on the finish event keeps the provider's word. */
export type StopReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'refusal' | 'other';

export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
  /** Input tokens read from the provider's prompt cache (included in inputTokens). */
  cachedTokens?: number;
  /** Input tokens written to the prompt cache (Anthropic). */
  cacheWriteTokens?: number;
  /** Output tokens spent on reasoning (included in outputTokens). */
  reasoningTokens?: number;
  totalTokens: number;
  /** Cost the provider reported itself (OpenRouter), in USD. */
  costUsd?: number;
  upstreamInferenceCostUsd?: number;
}

/**
 * What a `ModelClient` yields while one call runs. Deltas are for streaming display; the
 * complete answer is the concatenation of the deltas plus the complete tool calls.
 */
export type ModelStreamEvent =
  | { type: 'text-delta'; text: string }
  /** A reasoning delta. A delta carrying `signature`, `redactedData` or `providerData` closes the current block. */
  | {
      type: 'reasoning-delta';
      text: string;
      signature?: string;
      redactedData?: string;
      providerData?: Record<string, unknown>;
    }
  | { type: 'tool-call'; call: ToolCall }
  /**
   * The client changed the request to make it valid for this API or model (a parameter the
   * model rejects left out, thinking turned off for a history it cannot continue, ...). The
   * session logs it at VRB; it changes nothing else.
   */
  | { type: 'notice'; message: string }
  | { type: 'usage'; usage: TokenUsage }
  | {
      type: 'finish';
      stopReason: StopReason;
      rawStopReason?: string;
      /** Provider/model that actually answered, when a router reports it. */
      actualProvider?: string;
      actualModel?: string;
      responseId?: string;
    };
