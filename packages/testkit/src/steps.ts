import type {
  ConversationMessage,
  ModelErrorKind,
  ModelRequest,
  StopReason,
  TokenUsage,
  ToolDefinition,
} from '@agent/protocol';

/**
 * A tool call the scripted model makes. `arguments` as a string is sent verbatim (it may be
 * invalid JSON). `id: null` plays a server that sends no id (Chat Completions: no `id` field;
 * elsewhere an empty id).
 */
export interface ScriptedToolCall {
  id?: string | null;
  name: string;
  arguments: Record<string, unknown> | string;
}

/** One reasoning block; `signature` is sent as the provider sends it (Anthropic signed thinking). */
export interface ScriptedReasoning {
  /** Whole text, or its deltas in order. */
  text: string | string[];
  signature?: string;
}

/**
 * Wire-level faults. The HTTP server plays them on the wire; `scriptedModel` plays what a provider
 * client makes of them (hangs until its signal or timeout, a `network` or `invalid_response` error).
 */
export type ScriptedFault =
  /** Send status and headers, then never a byte of body. */
  | 'hang-after-headers'
  /** Accept the request and never answer. */
  | 'hang'
  /** Stream part of the answer, then destroy the socket. */
  | 'cut-stream'
  /** Stream an SSE event whose data is not JSON. */
  | 'malformed-sse';

/** A scripted error: the server sends what that provider really sends for this kind. */
export interface ScriptedError {
  kind: ModelErrorKind;
  message?: string;
  /** Sent as `retry-after` (seconds) and `retry-after-ms` headers where the provider does. */
  retryAfterMs?: number;
  /** Override the status the kind maps to (e.g. 529 for Anthropic overload, 503). */
  status?: number;
  /**
   * Fail inside a started answer instead of before it: the text deltas go out first, then the
   * error (HTTP: status 200, then the API's in-stream error event; in-process: thrown after the
   * text deltas). Streaming requests only; a non-streaming HTTP call gets the plain error.
   */
  midStream?: boolean;
}

/** The answer to one model call. */
export interface ScriptedAnswer {
  /** Visible text: whole, or its deltas in order. */
  text?: string | string[];
  reasoning?: ScriptedReasoning | ScriptedReasoning[];
  toolCalls?: ScriptedToolCall[];
  usage?: Partial<TokenUsage>;
  /** Normalised stop reason; default `tool_calls` when there are tool calls, else `stop`. */
  stopReason?: StopReason;
  /** The provider's own stop word to send instead of the one `stopReason` maps to (e.g. `eos`). */
  rawStopReason?: string;
  /** Milliseconds to wait before answering. */
  delayMs?: number;
  /** Milliseconds between streamed deltas (slow token-by-token streaming). */
  tokenDelayMs?: number;
  /** Fail this call instead of answering. */
  error?: ScriptedError;
  /** A broken answer (see `ScriptedFault`). */
  fault?: ScriptedFault;
  /** HTTP server only: replay a recorded stream, path relative to the fixtures directory. */
  replay?: string;
  /**
   * HTTP server, Chat Completions only: the delta field reasoning travels in. Default
   * `reasoning_content` (DeepSeek, vLLM); `reasoning` is what Groq sends; `reasoning_details`
   * is OpenRouter's: the text in `reasoning` and again in `reasoning_details` pieces
   * (`reasoning.text` with the block's index), and a block's signature as a
   * `reasoning.encrypted` detail (Gemini's thought signature).
   */
  chatReasoningField?: 'reasoning_content' | 'reasoning' | 'reasoning_details';
}

/** What the scripted model saw, for assertions. */
export interface RecordedRequest {
  /** Which wire protocol carried it (`in-process` for scriptedModel). */
  api: 'in-process' | 'openai-chat' | 'openai-responses' | 'anthropic';
  model: string;
  messages: readonly ConversationMessage[];
  tools: readonly ToolDefinition[];
  options: Omit<ModelRequest, 'messages' | 'tools'>;
  /** HTTP server only: the raw JSON body and the headers (authorization redacted). */
  body?: unknown;
  headers?: Record<string, string>;
  /** HTTP server only: method and path as received, e.g. `POST /v1/chat/completions`. */
  route?: string;
  /** HTTP server only: the server the path prefix named (`/mistral/v1/...`), if any. */
  flavour?: string;
  /** HTTP server only: the scope the path named (`/scope/<id>/v1/...`), decoded, if any. */
  scope?: string;
  /** HTTP server, strict mode: the request was refused with this status and message (no step used). */
  rejected?: { status: number; message: string };
  /** In-process only: the call options (`timeoutMs`, and whether a signal was given). */
  callOptions?: { timeoutMs?: number; signal: boolean };
}

/** A step is an answer, or a function of the request that returns one. */
export type ScriptStep =
  | ScriptedAnswer
  | ((request: RecordedRequest) => ScriptedAnswer | Promise<ScriptedAnswer>);
