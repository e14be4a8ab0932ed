import type {
  AccountingEntry,
  AgentEvent,
  AgentEventMeta,
  AgentResult,
  ExpectedOutput,
  LogEntry,
  ModelTarget,
  ToolDefinition,
  ToolProvider,
} from '@agent/protocol';

// The seam between a session and this package: the core calls `size` for every tool result
// that is over the byte cap or would overflow the context, lists `tools()` while something is
// stored, and calls `dispose()` on every session end. Declared here once; the core imports it.

/** A tool result about to join the conversation, with what the session knows about its budget. */
export interface SizingRequest {
  toolName: string;
  callId: string;
  /** Arguments as the model sent them (verbatim JSON). */
  argumentsJson: string;
  text: string;
  bytes: number;
  /** Over `toolResponseMaxBytes`. */
  overSizeCap: boolean;
  /** Tokens the text would add, and how many the context has left for it. */
  estimatedTokens: number;
  remainingTokens: number;
}

/** What the hook decided: keep the text, or replace it by a handle message after storing it. */
export type SizingDecision =
  | { action: 'keep' }
  | {
      action: 'replace';
      text: string;
      /** Log/accounting details: handle, reason, bytes, lines, tokens. */
      details: Record<string, string | number | boolean>;
    };

/** One session's hook: sizes results, lists `tool_output` while something is stored, cleans up. */
export interface ToolOutputHook {
  size(request: SizingRequest, signal: AbortSignal): Promise<SizingDecision>;
  tools(): { definitions: readonly ToolDefinition[]; provider: ToolProvider } | undefined;
  dispose(): Promise<void>;
}

/** What the hook gets from the session it serves. */
export interface ToolOutputHookContext {
  sessionId: string;
  nonce: string;
  targets: readonly ModelTarget[];
  maxOutputTokens?: number;
  signal: AbortSignal;
  log(entry: Omit<LogEntry, 'timestamp'>): void;
  account(entry: AccountingEntry): void;
}

export type ToolOutputHookFactory = (context: ToolOutputHookContext) => ToolOutputHook;

/**
 * The session config the read-grep strategy hands to `runChildSession`: a subset of
 * `@agent/core`'s `AgentSessionConfig`, so the core's `runAgent` can be passed as is.
 */
export interface ChildSessionConfig {
  models: readonly ModelTarget[];
  tools: readonly ToolProvider[];
  instructions: string;
  prompt: string;
  output: ExpectedOutput;
  maxTurns: number;
  signal: AbortSignal;
  /** The parent's nonce, so the child's FINAL tag is the one its prompt names. */
  internal?: { nonce?: string };
  name: string;
  parentAgentPath?: string;
  isMaster: false;
  /** Off: the child gets only the tools given here (Read and Grep), not the session's own. */
  internalTools: false;
  onEvent: (event: AgentEvent, meta: AgentEventMeta) => void;
}

/** Runs a child session to its end (the core's `runAgent`). Never rejects for a run failure. */
export type RunChildSession = (config: ChildSessionConfig) => Promise<AgentResult>;

/**
 * Builds the tools of the read-grep child: a filesystem provider confined to `root` that
 * offers `Read` and `Grep` (for example `createInProcessFsProvider` of `@agent/mcp` with
 * `tools: ['Read', 'Grep']` and `naming: 'bare'`). Other tools it lists are not offered.
 */
export type CreateReadGrepTools = (root: string) => ToolProvider | Promise<ToolProvider>;

/** The strategies of `tool_output`. */
export type ExtractionMode = 'auto' | 'full-chunked' | 'read-grep' | 'truncate';
export type ExtractionStrategy = Exclude<ExtractionMode, 'auto'>;

/** Why an output was stored (or why storing it failed). */
export type StoreReason = 'size_cap' | 'token_budget' | 'reserve_failed';
