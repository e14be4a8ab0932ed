import type { ConversationMessage } from './messages.js';
import type { ModelRequest } from './model-request.js';
import type { StopReason, TokenUsage } from './model-stream.js';
import type { ToolErrorKind } from './tool-provider.js';
import type { ToolDefinition } from './tools.js';

/**
 * Which session of a run a tape (or a hook) is about: its agent path and how many sessions of
 * that path the run had started before it (0 for the first). The same run replayed gives the
 * same keys, so a replay can find each session's recorded answers (docs/evals.md).
 */
export interface SessionKey {
  agentPath: string;
  ordinal: number;
}

/**
 * A session's model and tool calls, in the order it made them, as a record keeps them
 * (`RecordNode.tape`, record version 2). Messages and tool definitions are stored once each;
 * a request lists the indexes of the ones it sent, so the tape grows with the conversation,
 * not with its square.
 */
export interface SessionTape extends SessionKey {
  /** Every distinct message the session's requests carried, in the order first sent. */
  messages: ConversationMessage[];
  /** Every distinct tool definition offered, in the order first offered. */
  tools: ToolDefinition[];
  /** The model calls (failed attempts, fallbacks and compaction summaries included). */
  calls: TapeModelCall[];
  /** The calls to tool providers (MCP servers, HTTP APIs, sub-agents, the caller's tools). */
  toolCalls: TapeToolCall[];
}

/** The options of a request other than its messages and tools (sampling, tool choice, ...). */
export type TapeRequestOptions = Omit<ModelRequest, 'messages' | 'tools'>;

export interface TapeModelCall {
  /** The configured provider name and model the call went to. */
  provider: string;
  model: string;
  /** Epoch milliseconds. */
  startedAt: number;
  durationMs: number;
  /** Indexes into the tape's `messages` and `tools`. */
  messages: number[];
  tools: number[];
  options: TapeRequestOptions;
  /** The answer, when the call completed. */
  answer?: TapeAnswer;
  /** Why the call failed, when it did (then `answer` is absent). */
  error?: TapeError;
}

/** A model's answer, as the stream delivered it. */
export interface TapeAnswer {
  text: string;
  reasoning?: { text: string; signature?: string; redactedData?: string }[];
  toolCalls: { id: string; name: string; arguments: string }[];
  usage?: TokenUsage;
  stopReason?: StopReason;
  rawStopReason?: string;
}

export interface TapeError {
  message: string;
  /** The `ModelError` kind (`rate_limit`, `auth`, `timeout`, ...), when the client gave one. */
  kind?: string;
  /** The HTTP status, when there was one. */
  status?: number;
}

export interface TapeToolCall {
  /** The model's tool-call id. */
  callId: string;
  /** The tool name the model called. */
  name: string;
  /** The provider's id and kind (`mcp`, `rest`, `subagent`, ...). */
  provider: string;
  kind?: string;
  arguments: Record<string, unknown>;
  /** What the provider returned (a sub-agent's result without its op tree). */
  result: TapeToolResult;
  startedAt: number;
  durationMs: number;
}

/** A tool result as a tape keeps it: the text the provider returned and whether it failed. */
export type TapeToolResult =
  | { ok: true; text: string; isError?: boolean; structured?: unknown }
  | { ok: false; error: { message: string; kind: ToolErrorKind } };
