import type { FinalReportStatus } from './final-report.js';
import type { ContentPart } from './messages.js';
import type { SessionNode } from './op-tree.js';
import type { ApprovalDecision, PendingToolCall, SessionSnapshot } from './session-snapshot.js';
import type { ToolDefinition } from './tools.js';

/** Why a tool call failed. The session turns every kind into a message to the model. */
export type ToolErrorKind =
  | 'unknown_tool'
  | 'invalid_arguments'
  | 'timeout'
  | 'aborted'
  | 'execution'
  | 'transport'
  | 'context_budget';

export interface ToolError {
  kind: ToolErrorKind;
  message: string;
}

/** What a tool answered: text for the model, plus optional parts and structured content. */
export type ToolResult =
  | {
      ok: true;
      text: string;
      parts?: ContentPart[];
      structured?: unknown;
      /** The tool reported a domain error (MCP `isError`): shown to the model as such. */
      isError?: boolean;
      /** A sub-agent's op tree: the session hangs it under this tool call's operation. */
      childSession?: SessionNode;
      /**
       * The call is the session's answer: the session ends after this turn with this report
       * instead of asking the model for one (a tool like a router's handoff, or a
       * `report_back` whose input schema is the output schema).
       */
      endSession?: ToolEndSession;
      /**
       * The provider answered from a cache instead of running the tool (a caching wrapper such
       * as the runtime's tool cache): the session marks the call's accounting and op-tree node.
       */
      cached?: true;
    }
  | {
      ok: false;
      error: ToolError;
      childSession?: SessionNode;
      /**
       * The tool ran a sub-agent session that paused for approval: the calling session pauses
       * too, and makes this call again (with `ToolCallRequest.resume`) once they are decided.
       */
      paused?: { pending: PendingToolCall[]; snapshot: SessionSnapshot };
    };

/**
 * The report a tool ends its session with. The session adds the format (the one it was asked
 * for) and the time, and does not check it against the output schema: the tool vouches for it.
 */
export interface ToolEndSession {
  /** Default `success`. */
  status?: FinalReportStatus;
  content?: string;
  content_json?: Record<string, unknown>;
  metadata?: Record<string, unknown>;
}

export interface ToolCallRequest {
  /** The exposed tool name (as listed by `listTools`). */
  name: string;
  arguments: Record<string, unknown>;
  /** The model's tool-call id, for correlation. */
  callId: string;
  /**
   * Stable across a crash and resume: the same (session, turn, call) gets the same key, so an
   * idempotent API applies a call that runs again once (`docs/sessions.md`). 64 hex digits.
   * Set by the session for every call it makes.
   */
  idempotencyKey?: string;
  /**
   * Set when the call is made again by a resumed session whose sub-agent paused in it: the
   * sub-agent's paused session and the decisions for its calls (`docs/sessions.md`).
   */
  resume?: PausedChild;
}

/** A sub-agent session paused inside a tool call, and the decisions it is resumed with. */
export interface PausedChild {
  snapshot: SessionSnapshot;
  approvals: Record<string, ApprovalDecision>;
}

export interface ToolExecuteOptions {
  signal: AbortSignal;
  timeoutMs?: number;
  /** Progress reports from long-running tools (MCP progress notifications). */
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
}

/** A source of tools: an MCP server, sub-agents, or anything a custom runtime brings. */
export interface ToolProvider {
  /** Identifier used in accounting (`mcpServer`) and logs, e.g. the MCP server's name. */
  readonly id: string;
  /** Protocol label for log identifiers (`mcp`, `agent`, `subagent`, ...). */
  readonly kind?: string;
  listTools(options?: { signal?: AbortSignal }): Promise<readonly ToolDefinition[]>;
  /** Runs one call. Never throws for a failed call: returns `{ ok: false, error }`. */
  execute(call: ToolCallRequest, options: ToolExecuteOptions): Promise<ToolResult>;
  /** Extra system-prompt text the tools need (instructions), if any. */
  instructions?(): string | undefined;
  close?(): Promise<void>;
}
