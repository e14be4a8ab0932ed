import type {
  AgentEventCallbacks,
  ConversationMessage,
  ExpectedOutput,
  ModelTarget,
  ReasoningOptions,
  ToolProvider,
} from '@agent/protocol';
import type { RetryBackoffSettings } from './loop/retry-delay.js';
import type { ToolOutputConfig } from './tools/tool-output-wiring.js';

/** Everything a session needs. Only `targets`, `userPrompt` and an output contract are essential. */
export interface AgentSessionConfig {
  /** Ordered fallback list: the turn moves to the next target on each failed attempt. */
  targets: readonly ModelTarget[];
  tools?: readonly ToolProvider[];
  systemPrompt?: string;
  userPrompt: string;
  conversationHistory?: readonly ConversationMessage[];
  /** Output contract; default `{ format: 'markdown' }`. */
  expectedOutput?: ExpectedOutput;
  /** Turns before the final turn is forced (default 10). */
  maxTurns?: number;
  /** Attempts per turn before the turn gives up (default 3). */
  maxRetries?: number;
  /**
   * Wait before calling a target again after a network, timeout, server (5xx, overload) or
   * invalid-response error: the n-th wait in a row is uniform in [d/2, d), d = min(maxMs,
   * baseMs * 2^(n-1)) (defaults 500 and 30000); a `retry-after` from the provider wins, bounded
   * to 1-60 s. Moving on to another target does not wait.
   */
  retryBackoff?: RetryBackoffSettings;
  /** Native tool calls accepted per turn; extra calls get an error message (default unlimited). */
  maxToolCallsPerTurn?: number;
  /** Per LLM call, milliseconds (default 120000). */
  llmTimeout?: number;
  /** Per tool call, milliseconds (default 120000). */
  toolTimeout?: number;
  temperature?: number;
  topP?: number;
  maxOutputTokens?: number;
  reasoning?: ReasoningOptions;
  /** Stream model answers (default true). */
  stream?: boolean;
  /** A tool result over this many bytes goes to the tool-output hook (default 12288 when a hook is set). */
  toolResponseMaxBytes?: number;
  /** Overrides every target's context window. */
  contextWindow?: number;
  /**
   * Stores oversized tool outputs behind a handle (see `@agent/tool-output`): a hook factory, or
   * the module's settings (`{ enabled, storeDir, maxChunks, overlapPercent, avgLineBytesThreshold,
   * models, createReadGrepTools, ... }`) from which the session builds the hook. Absent: no hook.
   */
  toolOutput?: ToolOutputConfig;
  /** Offer the session's own `agent__task_status` and `agent__batch` tools (default true; extraction children turn them off). */
  internalTools?: boolean;
  callbacks?: AgentEventCallbacks;
  signal?: AbortSignal;
  /** Name of this agent in logs and the op tree (default `main`). */
  agentName?: string;
  /** Dotted path of the parent agents, for sub-agents. */
  parentAgentPath?: string;
  /** False for sub-agent sessions (events carry `isMaster: false`). */
  isMaster?: boolean;
  headendId?: string;
  /** Session id; default a random UUID. */
  sessionId?: string;
  /** Fixed nonce for the FINAL tag (tests); default a fresh cryptographic one. */
  nonce?: string;
  /** Clock and sleep, replaceable in tests. */
  now?: () => number;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

export const DEFAULT_LLM_TIMEOUT_MS = 120_000;
export const DEFAULT_TOOL_TIMEOUT_MS = 120_000;
export const DEFAULT_TOOL_RESPONSE_MAX_BYTES = 12_288;
/** Bounds for honouring a provider's retry-after. */
export const MIN_RATE_LIMIT_WAIT_MS = 1_000;
export const MAX_RATE_LIMIT_WAIT_MS = 60_000;
