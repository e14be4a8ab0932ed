import type { ModelCallOptions, ModelRequest } from './model-request.js';
import type { ModelStreamEvent } from './model-stream.js';

/**
 * A model behind one provider. `stream` yields events until the call finishes and throws a
 * `ModelError` when it fails; aborting `options.signal` ends it promptly with kind `aborted`.
 */
export interface ModelClient {
  /** Configured provider key, e.g. `openai`, `local`. */
  readonly provider: string;
  /** Model name as configured, e.g. `gpt-4o-mini`. */
  readonly model: string;
  /**
   * The model makes several tool calls in one answer on its own (native parallel tool calls).
   * When every model of a session says so, the session does not offer `agent__batch` by default;
   * absent means unknown.
   */
  readonly parallelToolCalls?: boolean;
  /**
   * The client sends tools marked `deferLoading` as deferred and loads them from a tool result's
   * `toolReferences` (Anthropic's tool references). A native tool search needs it of every model
   * of the session; absent means no.
   */
  readonly deferredTools?: boolean;
  stream(request: ModelRequest, options?: ModelCallOptions): AsyncIterable<ModelStreamEvent>;
  /**
   * Tokens of `text` as this model counts them, where the client knows its tokenizer (the
   * providers fill it in for OpenAI models). Must be synchronous and cheap enough to call once
   * per message; without it the session's context guard uses a heuristic.
   */
  countTokens?(text: string): number;
  /**
   * A cheap number never below `countTokens(text)` (the providers give the UTF-8 byte length for
   * byte-level BPE tokenizers: every token is at least one byte). With it the context guard counts
   * exactly only when the bound does not already settle a check, so a small first request is sent
   * without loading the tokenizer.
   */
  countTokensBound?(text: string): number;
}

/** One entry of a session's ordered fallback list. */
export interface ModelTarget {
  client: ModelClient;
  /** Context window in tokens for this target (default 131072). */
  contextWindow?: number;
  /** Tokens kept free below the window (default 256). */
  contextBuffer?: number;
}
