import type { TokenUsage } from '@agent/protocol';
import type { ScriptedError } from '../steps.js';
import type { ErrorContext } from './faults.js';
import type { Flavour } from './strict/index.js';

/** What every API renderer needs besides the planned answer. */
export interface RenderContext extends ErrorContext {
  callNumber: number;
  /** Unix seconds the answer was created. */
  created: number;
  /** Chat Completions: `stream_options.include_usage` was asked for. */
  includeUsage: boolean;
  /** A `midStream` error to send after the text. */
  midStreamError?: ScriptedError;
  /** The server the call was addressed to by its path prefix (`/mistral/v1/...`). */
  flavour?: Flavour;
  /** Responses: the request has the client-executed `tool_search` tool, so a search is its own item. */
  clientToolSearch?: boolean;
}

/** Tool-call argument fragments are this many characters, like a model's tokens. */
export const ARGUMENT_PIECE_CHARS = 8;

/** Input tokens as the protocol counts them include cached ones; Anthropic's `input_tokens` does not. */
export function uncachedInputTokens(usage: TokenUsage): number {
  return Math.max(0, usage.inputTokens - (usage.cachedTokens ?? 0) - (usage.cacheWriteTokens ?? 0));
}
