import { ConfigError } from '@agent/protocol';
import type { Headend } from '../headend.js';
import { createHeadendBase } from '../headend-base.js';
import type { HeadendOptions } from '../headend-options.js';
import { type ErrorResponder, presentedToken } from '../http-guards.js';
import { ANONYMOUS_PRINCIPAL } from '../principal.js';
import { createAgentToolsServer } from './agent-tools.js';
import { McpSessions } from './mcp-sessions.js';
import {
  DEFAULT_MCP_MAX_SESSIONS,
  DEFAULT_MCP_MAX_SESSIONS_PER_TOKEN,
  DEFAULT_MCP_SESSION_IDLE_MS,
} from './session-counts.js';

export interface McpHeadendOptions extends HeadendOptions {
  /**
   * How long a client asked to approve a tool call (elicitation) may take to answer; then the
   * call is denied, saying so (default 10 minutes).
   */
  approvalTimeoutMs?: number;
  /** Path of the Streamable HTTP endpoint (default `/mcp`). */
  path?: string;
  /** Open sessions at once (default 256); one more `initialize` gets 429 with `Retry-After`. */
  maxSessions?: number;
  /** Open sessions one token may hold (default 64); not counted without auth. */
  maxSessionsPerToken?: number;
  /** A session with no request and no running call for this long is closed (default 15 minutes). */
  sessionIdleMs?: number;
  /**
   * Close a tool call's SSE stream this long after it opened, for clients of the 2025-11-25
   * revision, which reconnect with `Last-Event-ID` and get the rest (for proxies that cut long
   * responses). Default: the stream stays open until the call ends.
   */
  streamCloseAfterMs?: number;
}

/** The MCP headend, with the number of sessions it holds open. */
export interface McpHeadend extends Headend {
  readonly openSessions: number;
}

const JSON_RPC_CODES: Record<string, number> = { bad_request: -32700, server_error: -32603 };

const respondMcp: ErrorResponder = (c, status, kind, message) =>
  c.json(
    { jsonrpc: '2.0', error: { code: JSON_RPC_CODES[kind] ?? -32000, message }, id: null },
    status as 400,
  );

/** MCP headend over Streamable HTTP (one MCP session per client): every agent is a tool. */
export function createMcpHeadend(options: McpHeadendOptions): McpHeadend {
  const { app, admission, tokens, principals, headendId } = createHeadendBase('mcp', options, {
    respond: respondMcp,
  });
  const path = options.path ?? '/mcp';
  const idleMs = options.sessionIdleMs ?? DEFAULT_MCP_SESSION_IDLE_MS;
  requireMilliseconds('sessionIdleMs', idleMs, POSITIVE_MS);
  const { approvalTimeoutMs, streamCloseAfterMs } = options;
  if (approvalTimeoutMs !== undefined)
    requireMilliseconds('approvalTimeoutMs', approvalTimeoutMs, POSITIVE_MS);
  if (streamCloseAfterMs !== undefined)
    requireMilliseconds('streamCloseAfterMs', streamCloseAfterMs, ZERO_OR_MORE_MS);
  const sessions = new McpSessions(
    ({ requestSignals, activity, token }) =>
      createAgentToolsServer({
        catalog: options.catalog,
        admission,
        headendId,
        // The session is bound to the token that opened it: its principal for the session's life.
        principal: token === undefined ? ANONYMOUS_PRINCIPAL : principals.of(token),
        activity,
        streamCloseAfterMs,
        ...(approvalTimeoutMs === undefined ? {} : { approvalTimeoutMs }),
        requestSignal: (requestId) => takeSignal(requestSignals, requestId),
      }),
    {
      maxSessions: Math.max(1, options.maxSessions ?? DEFAULT_MCP_MAX_SESSIONS),
      maxSessionsPerToken: Math.max(1, options.maxSessionsPerToken ?? DEFAULT_MCP_MAX_SESSIONS_PER_TOKEN),
      idleMs,
      retryAfterSeconds: admission.retryAfterSeconds,
    },
  );
  app.all(path, async (c) => {
    if (admission.draining && c.req.header('mcp-session-id') === undefined) {
      const response = respondMcp(c, 503, 'draining', 'the server is shutting down');
      response.headers.set('retry-after', String(admission.retryAfterSeconds));
      return response;
    }
    return sessions.handle(c.req.raw, tokens === undefined ? undefined : presentedToken(c, false));
  });
  return {
    kind: 'mcp',
    app,
    admission,
    authRequired: tokens !== undefined,
    get openSessions() {
      return sessions.size;
    },
    dispose: () => sessions.closeAll(),
  };
}

/** A range of milliseconds a timing option must be in: its test and how errors say it. */
interface MillisecondRange {
  holds: (ms: number) => boolean;
  allowed: string;
}

const POSITIVE_MS: MillisecondRange = { holds: (ms) => ms > 0, allowed: 'a positive number of milliseconds' };
const ZERO_OR_MORE_MS: MillisecondRange = {
  holds: (ms) => ms >= 0,
  allowed: 'a number of milliseconds, 0 or more',
};

/** Throws a `ConfigError` naming the option when `value` is not a finite number in `range`. */
function requireMilliseconds(field: string, value: number, range: MillisecondRange): void {
  if (Number.isFinite(value) && range.holds(value)) return;
  throw new ConfigError({
    field,
    value,
    allowed: range.allowed,
    message: `mcp headend: ${field} must be ${range.allowed}, not ${value}`,
  });
}

/** The signal of the HTTP request that carried a JSON-RPC request, handed out once. */
function takeSignal(
  requestSignals: Map<string | number, AbortSignal>,
  requestId: string | number,
): AbortSignal | undefined {
  const signal = requestSignals.get(requestId);
  requestSignals.delete(requestId);
  return signal;
}
