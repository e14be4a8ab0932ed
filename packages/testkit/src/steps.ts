import type {
  ConversationMessage,
  ModelErrorKind,
  ModelRequest,
  StopReason,
  ToolDefinition,
  TokenUsage,
} from '@agent/protocol';

/** A tool call the scripted model makes. `arguments` as a string is sent verbatim (it may be invalid JSON). */
export interface ScriptedToolCall {
  id?: string;
  name: string;
  arguments: Record<string, unknown> | string;
}

/** One reasoning block; `signature` is sent as the provider sends it (Anthropic signed thinking). */
export interface ScriptedReasoning {
  /** Whole text, or its deltas in order. */
  text: string | string[];
  signature?: string;
}

/** Wire-level faults only the HTTP server can play. */
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
  /** Milliseconds to wait before answering. */
  delayMs?: number;
  /** Milliseconds between streamed deltas (slow token-by-token streaming). */
  tokenDelayMs?: number;
  /** Fail this call instead of answering. */
  error?: ScriptedError;
  /** HTTP server only. */
  fault?: ScriptedFault;
  /** HTTP server only: replay a recorded stream, path relative to the fixtures directory. */
  replay?: string;
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
}

/** A step is an answer, or a function of the request that returns one. */
export type ScriptStep = ScriptedAnswer | ((request: RecordedRequest) => ScriptedAnswer | Promise<ScriptedAnswer>);
