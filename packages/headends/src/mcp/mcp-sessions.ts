import { randomUUID } from 'node:crypto';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';

interface McpSession {
  server: Server;
  transport: WebStandardStreamableHTTPServerTransport;
  /** JSON-RPC request id -> the signal of the HTTP request that carried it. */
  requestSignals: Map<string | number, AbortSignal>;
  lastSeen: number;
}

/** Sessions with no request for this long are closed (clients that never send DELETE). */
const IDLE_MS = 15 * 60 * 1000;

/**
 * Streamable HTTP sessions: one MCP server per client session, so `notifications/cancelled`
 * reaches the request it cancels; the HTTP request's signal (client disconnect) aborts the
 * tool call it carried.
 */
export class McpSessions {
  private readonly sessions = new Map<string, McpSession>();
  private sweeper: ReturnType<typeof setInterval> | undefined;

  constructor(private readonly makeServer: (session: Pick<McpSession, 'requestSignals'>) => Server) {}

  get size(): number {
    return this.sessions.size;
  }

  async handle(request: Request): Promise<Response> {
    const parsedBody = request.method === 'POST' ? await request.json().catch(() => undefined) : undefined;
    const id = request.headers.get('mcp-session-id');
    const session = id === null ? await this.open() : this.sessions.get(id);
    if (session === undefined) {
      return new Response(
        JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'session not found' }, id: null }),
        { status: 404, headers: { 'content-type': 'application/json' } },
      );
    }
    session.lastSeen = Date.now();
    for (const message of Array.isArray(parsedBody) ? parsedBody : [parsedBody]) {
      const { id: requestId, method } = (message ?? {}) as { id?: unknown; method?: unknown };
      if (method === 'tools/call' && (typeof requestId === 'string' || typeof requestId === 'number')) {
        session.requestSignals.set(requestId, request.signal);
      }
    }
    const response = await session.transport.handleRequest(request, { parsedBody });
    if (id === null && session.transport.sessionId === undefined) await session.server.close();
    return response;
  }

  /** Closes every session (aborting their tool calls). */
  async closeAll(): Promise<void> {
    if (this.sweeper !== undefined) clearInterval(this.sweeper);
    await Promise.allSettled([...this.sessions.values()].map((session) => session.server.close()));
    this.sessions.clear();
  }

  private async open(): Promise<McpSession> {
    const requestSignals = new Map<string | number, AbortSignal>();
    const server = this.makeServer({ requestSignals });
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => {
        this.sessions.set(sessionId, session);
      },
      onsessionclosed: (sessionId) => {
        this.sessions.delete(sessionId);
      },
    });
    const session: McpSession = { server, transport, requestSignals, lastSeen: Date.now() };
    this.sweeper ??= setInterval(() => this.sweep(), 60_000);
    this.sweeper.unref?.();
    transport.onclose = () => {
      if (transport.sessionId !== undefined) this.sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    return session;
  }

  private sweep(): void {
    const cutoff = Date.now() - IDLE_MS;
    for (const [id, session] of this.sessions) {
      if (session.lastSeen < cutoff && session.requestSignals.size === 0) {
        this.sessions.delete(id);
        void session.server.close();
      }
    }
  }
}
