import type { ConversationMessage } from './messages.js';
import type { ToolChoice, ToolDefinition } from './tools.js';

/**
 * How hard a reasoning model thinks. Not every model takes every value: `none` (gpt-5.1 and
 * later: no reasoning) and `xhigh` are recent; clients map a value to the nearest one the
 * model accepts, and `none` turns Anthropic thinking off.
 */
export type ReasoningEffort = 'none' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh';

export const REASONING_EFFORTS: readonly ReasoningEffort[] = [
  'none',
  'minimal',
  'low',
  'medium',
  'high',
  'xhigh',
];

/** Reasoning controls: `effort` for OpenAI-style models, `budgetTokens` for Anthropic thinking. */
export interface ReasoningOptions {
  effort?: ReasoningEffort;
  budgetTokens?: number;
}

/** Everything one model call needs. The conversation is passed by reference, never copied. */
export interface ModelRequest {
  messages: readonly ConversationMessage[];
  tools?: readonly ToolDefinition[];
  toolChoice?: ToolChoice;
  temperature?: number;
  topP?: number;
  /**
   * Top-k sampling and the repeat penalty (seed 002): sent where the API takes them (Anthropic
   * `top_k`; OpenAI-compatible servers as extra body fields); clients that cannot send one say
   * so with a `notice` event and leave it out.
   */
  topK?: number;
  repeatPenalty?: number;
  maxOutputTokens?: number;
  reasoning?: ReasoningOptions;
  /** Ask for a streamed answer (default true). A non-streamed answer yields the same events at once. */
  stream?: boolean;
}

export interface ModelCallOptions {
  signal?: AbortSignal;
  /** Whole-call timeout; on expiry the call fails with a `timeout` ModelError. */
  timeoutMs?: number;
}
