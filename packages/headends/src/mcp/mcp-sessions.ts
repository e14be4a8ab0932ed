import { randomUUID } from 'node:crypto';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { CallActivity } from './agent-tools.js';
import { SessionEventStore } from './event-store.js';
import { type McpSessionLimits, SessionCounts } from './session-counts.js';

interface McpSession {
  server: Server;
  transport: WebStandardStreamableHTTPServerTransport;
  /** JSON-RPC request id -> the signal of the HTTP request that carried it. */
  requestSignals: Map<string | number, AbortSignal>;
  /** The token that opened the session; only it may use the session. */
  token: string | undefined;
  runningCalls: number;
  /**
   * The client declared 2025-11-25 or later at `initialize`: it gets priming events and may
   * resume a dropped stream with `Last-Event-ID`, so a dropped connection is not a cancel.
   */
  resumable: boolean;
  idleTimer: ReturnType<typeof setTimeout> | undefined;
  released: boolean;
}

/** What each session's MCP server is built with. */
export interface SessionHooks {
  requestSignals: Map<string | number, AbortSignal>;
  activity: CallActivity;
  /** The bearer token that opened the session (undefined without auth). */
  token: string | undefined;
}

const jsonRpcError = (status: number, code: number, message: string, id: unknown = null) =>
  new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id }), {
    status,
    headers: { 'content-type': 'application/json' },
  });

/** The first protocol revision with priming events and resumable streams. */
const RESUMABLE_REVISION = '2025-11-25';
/** Milliseconds a client waits before it reconnects a dropped stream (the SSE `retry` field). */
export const MCP_SSE_RETRY_MS = 1000;

/** The `initialize` request in a POST body (its id and protocol version), or undefined. */
function initializeRequest(body: unknown): { id: unknown; protocolVersion: string } | undefined {
  const messages: unknown[] = Array.isArray(body) ? body : [body];
  const found = messages.find((message) => isInitializeRequest(message));
  if (found === undefined || !isInitializeRequest(found)) return undefined;
  return { id: (found as { id?: unknown }).id ?? null, protocolVersion: found.params.protocolVersion };
}

/**
 * The request as the SDK transport should see it. The transport sends priming events only when
 * the request's `mcp-protocol-version` header is 2025-11-25 or later; a client that declared
 * that revision at `initialize` handles them whatever version it stamps on a later request.
 */
function withSessionRevision(request: Request, session: McpSession): Request {
  const stamped = request.headers.get('mcp-protocol-version');
  if (!session.resumable || stamped === null || stamped >= RESUMABLE_REVISION) return request;
  const headers = new Headers(request.headers);
  headers.set('mcp-protocol-version', RESUMABLE_REVISION);
  // The body was read already (it goes to the transport as `parsedBody`).
  return new Request(request.url, { method: request.method, headers, signal: request.signal });
}

/**
 * Streamable HTTP sessions: one MCP server per client session, so `notifications/cancelled`
 * reaches the request it cancels; the HTTP request's signal (client disconnect) aborts the
 * tool call it carried. Sessions are capped in total and per token, and one with no request
 * and no running call for `idleMs` is closed (clients that never send DELETE).
 */
export class McpSessions {
  private readonly byId = new Map<string, McpSession>();
  /** Every session with a live server, initialized or not. */
  private readonly live = new Set<McpSession>();
  private readonly counts: SessionCounts;

  constructor(
    private readonly makeServer: (hooks: SessionHooks) => Server,
    private readonly limits: McpSessionLimits,
  ) {
    this.counts = new SessionCounts(limits);
  }

  /** Sessions open now (each holds an MCP server). */
  get size(): number {
    return this.live.size;
  }

  /** Answers one HTTP request; `token` is the bearer it presented (undefined without auth). */
  async handle(request: Request, token: string | undefined): Promise<Response> {
    const parsedBody = request.method === 'POST' ? await request.json().catch(() => undefined) : undefined;
    const id = request.headers.get('mcp-session-id');
    if (id === null) return this.handleWithoutSession(request, parsedBody, token);
    const session = this.byId.get(id);
    if (session === undefined || session.token !== token) {
      return jsonRpcError(404, -32001, 'session not found');
    }
    this.restartIdleClock(session);
    // A client that cannot resume loses the call with its connection, so the call stops then.
    for (const message of session.resumable ? [] : Array.isArray(parsedBody) ? parsedBody : [parsedBody]) {
      const { id: requestId, method } = (message ?? {}) as { id?: unknown; method?: unknown };
      if (method === 'tools/call' && (typeof requestId === 'string' || typeof requestId === 'number')) {
        session.requestSignals.set(requestId, request.signal);
      }
    }
    return session.transport.handleRequest(withSessionRevision(request, session), { parsedBody });
  }

  /** Closes every session (aborting their tool calls). */
  async closeAll(): Promise<void> {
    await Promise.allSettled([...this.live].map((session) => session.server.close()));
  }

  /** An `initialize` opens a session when the caps allow; anything else is answered by a throwaway one. */
  private async handleWithoutSession(
    request: Request,
    parsedBody: unknown,
    token: string | undefined,
  ): Promise<Response> {
    const initialize = initializeRequest(parsedBody);
    const refusal = initialize === undefined ? undefined : this.counts.refusal(token);
    if (refusal !== undefined) {
      const response = jsonRpcError(429, -32000, refusal, initialize?.id ?? null);
      response.headers.set('retry-after', String(this.limits.retryAfterSeconds));
      return response;
    }
    const session = await this.open(token, (initialize?.protocolVersion ?? '') >= RESUMABLE_REVISION);
    const response = await session.transport.handleRequest(request, { parsedBody });
    if (session.transport.sessionId === undefined) await session.server.close();
    else this.restartIdleClock(session);
    return response;
  }

  private async open(token: string | undefined, resumable: boolean): Promise<McpSession> {
    // Counted before the first await, so concurrent initializes cannot pass the cap together.
    this.counts.add(token);
    const requestSignals = new Map<string | number, AbortSignal>();
    const activity: CallActivity = {
      callStarted: () => {
        session.runningCalls += 1;
        this.stopIdleClock(session);
      },
      callFinished: () => {
        session.runningCalls -= 1;
        this.restartIdleClock(session);
      },
    };
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      eventStore: new SessionEventStore(),
      retryInterval: MCP_SSE_RETRY_MS,
      onsessioninitialized: (sessionId) => {
        if (!session.released) this.byId.set(sessionId, session);
      },
    });
    const session: McpSession = {
      server: this.makeServer({ requestSignals, activity, token }),
      transport,
      requestSignals,
      token,
      runningCalls: 0,
      resumable,
      idleTimer: undefined,
      released: false,
    };
    this.live.add(session);
    // Set before connect: the server chains it, so it runs however the transport closes.
    transport.onclose = () => this.release(session);
    await session.server.connect(transport);
    return session;
  }

  /** The session expires after `idleMs` with no request, unless a call is running. */
  private restartIdleClock(session: McpSession): void {
    this.stopIdleClock(session);
    if (session.runningCalls > 0 || session.released) return;
    session.idleTimer = setTimeout(() => void session.server.close(), this.limits.idleMs);
    session.idleTimer.unref?.();
  }

  private stopIdleClock(session: McpSession): void {
    if (session.idleTimer !== undefined) clearTimeout(session.idleTimer);
    session.idleTimer = undefined;
  }

  private release(session: McpSession): void {
    if (session.released) return;
    session.released = true;
    this.stopIdleClock(session);
    this.live.delete(session);
    this.counts.remove(session.token);
    if (session.transport.sessionId !== undefined) this.byId.delete(session.transport.sessionId);
  }
}
