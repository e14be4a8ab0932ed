import type { AccountingEntry, LogEntry, ModelTarget, ToolDefinition, ToolProvider } from '@agent/protocol';

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

/**
 * The seam where a tool result is sized before it joins the conversation. `@agent/tool-output`
 * implements it; a session without a hook keeps results as they are and relies on the context guard.
 */
export interface ToolOutputHook {
  /** Called for every result that is over the size cap or would overflow the context. */
  size(request: SizingRequest, signal: AbortSignal): Promise<SizingDecision>;
  /** Extra tools to list this turn (e.g. `tool_output` while the store is non-empty); never on the final turn. */
  tools(): { definitions: readonly ToolDefinition[]; provider: ToolProvider } | undefined;
  /** Releases everything the hook holds (its store directory). Called on every session end. */
  dispose(): Promise<void>;
}

/** What a hook factory gets from the session it serves. */
export interface ToolOutputHookContext {
  sessionId: string;
  nonce: string;
  targets: readonly ModelTarget[];
  maxOutputTokens?: number;
  signal: AbortSignal;
  log(entry: Omit<LogEntry, 'timestamp'>): void;
  account(entry: AccountingEntry): void;
}

/** Builds the hook for one session; called once when the session starts. */
export type ToolOutputHookFactory = (context: ToolOutputHookContext) => ToolOutputHook;
