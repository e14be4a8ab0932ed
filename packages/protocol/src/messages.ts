/** A piece of content that is not plain text: images travel this way (MCP image results, user uploads). */
export type ContentPart =
  | { type: 'text'; text: string }
  | { type: 'image'; mimeType: string /** base64, no data: prefix */; data: string };

/**
 * One block of model reasoning. `signature` (Anthropic) or `redactedData` must be sent back
 * unchanged on the next turn; `providerData` carries opaque items other APIs require
 * (for example an OpenAI Responses reasoning item id and its encrypted content).
 */
export interface ReasoningPart {
  text: string;
  signature?: string;
  redactedData?: string;
  providerData?: Record<string, unknown>;
}

/** A native tool call as the model made it. */
export interface ToolCall {
  id: string;
  name: string;
  /** Parsed arguments; `{}` when they could not be parsed (see `parseError`). */
  arguments: Record<string, unknown>;
  /** The arguments exactly as the model sent them, when they were a string on the wire. */
  rawArguments?: string;
  /** Set when `rawArguments` was not a valid JSON object; the session tells the model. */
  parseError?: string;
}

export interface SystemMessage {
  role: 'system';
  content: string;
}

export interface UserMessage {
  role: 'user';
  content: string;
  parts?: ContentPart[];
  /**
   * The end of a stable prefix the session will send unchanged on later requests (a compaction's
   * summary, docs/compaction.md): a provider with explicit prompt caching (Anthropic
   * `cache_control`) puts a breakpoint after it. Others ignore it.
   */
  cacheBreakpoint?: true;
}

export interface AssistantMessage {
  role: 'assistant';
  /** Visible text; may be empty when the turn only called tools. */
  content: string;
  reasoning?: ReasoningPart[];
  toolCalls?: ToolCall[];
}

export interface ToolResultMessage {
  role: 'tool';
  toolCallId: string;
  toolName: string;
  content: string;
  /** Non-text parts of the result (images), kept for providers that accept them. */
  parts?: ContentPart[];
  isError?: boolean;
  /** Deferred tools this result loads (a native tool search's findings), sent as references. */
  toolReferences?: string[];
}

export type ConversationMessage = SystemMessage | UserMessage | AssistantMessage | ToolResultMessage;

export type MessageRole = ConversationMessage['role'];
