import type { AccountingEntry } from './accounting.js';
import type { AgentResult } from './agent-result.js';
import type { AgentEvent, AgentEventMeta } from './events.js';
import type { LogEntry } from './log-entry.js';
import type { ModelTarget } from './model-client.js';
import type { ExpectedOutput } from './output-format.js';
import type { SavedToolOutput } from './session-snapshot.js';
import type { ToolProvider } from './tool-provider.js';
import type { ToolDefinition } from './tools.js';

// The tool-output seam: a session calls `size` for every tool result that is over the byte cap
// or would overflow the context, lists `tools()` while something is stored, and calls `dispose()`
// on every session end. `@agent/tool-output` implements it and `@agent/core` calls it; a custom
// runtime may bring its own hook of the same shape.

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
  /**
   * The stored outputs a snapshot carries, so the handles the conversation names still read
   * after a resume in another process (bounded by the hook; the newest kept first).
   */
  saveOutputs?(): Promise<SavedToolOutput[]>;
  /** Puts a snapshot's stored outputs back under their handles (a resumed session). */
  restoreOutputs?(outputs: readonly SavedToolOutput[]): Promise<void>;
  /**
   * Stores a text the session moves out of the context (a compaction's transcript,
   * docs/compaction.md) under a fresh handle, so `tool_output` can extract from it; resolves with
   * the handle. Rejects when the store cannot take it (the session then does not compact).
   */
  storeText?(output: StoredText, signal: AbortSignal): Promise<string>;
}

/** A text the session stores itself (not a tool's result): what `storeText` takes. */
export interface StoredText {
  /** The name it is listed under (`COMPACTION_STORE_NAME` for a compaction). */
  toolName: string;
  /** What it holds, as JSON (a compaction: `{"fromTurn":3,"toTurn":40}`). */
  argumentsJson: string;
  text: string;
  /** Tokens as the session estimated them. */
  tokens: number;
}

/** What the hook gets from the session it serves. */
export interface ToolOutputHookContext {
  sessionId: string;
  nonce: string;
  targets: readonly ModelTarget[];
  /** The session's context window (`contextWindow` of its config): overrides every target's. */
  contextWindow?: number;
  maxOutputTokens?: number;
  signal: AbortSignal;
  log(entry: Omit<LogEntry, 'timestamp'>): void;
  account(entry: AccountingEntry): void;
}

export type ToolOutputHookFactory = (context: ToolOutputHookContext) => ToolOutputHook;

/**
 * The session config a hook hands to `runChildSession` (tool-output's read-grep child): a subset
 * of `@agent/core`'s `AgentSessionConfig`, so the core's `runAgent` can be passed as is.
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
