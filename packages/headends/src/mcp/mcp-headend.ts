import type { Headend } from '../headend.js';
import { createHeadendBase } from '../headend-base.js';
import type { HeadendOptions } from '../headend-options.js';
import type { ErrorResponder } from '../http-guards.js';
import { createAgentToolsServer } from './agent-tools.js';
import { hostCheck, LOOPBACK_HOSTNAMES } from './host-check.js';
import { McpSessions } from './mcp-sessions.js';

export interface McpHeadendOptions extends HeadendOptions {
  /** Path of the Streamable HTTP endpoint (default `/mcp`). */
  path?: string;
  /** Hostnames accepted in Host / Origin (default loopback names): DNS rebinding protection. */
  allowedHostnames?: readonly string[];
}

const JSON_RPC_CODES: Record<string, number> = { bad_request: -32700, server_error: -32603 };

const respondMcp: ErrorResponder = (c, status, kind, message) =>
  c.json(
    { jsonrpc: '2.0', error: { code: JSON_RPC_CODES[kind] ?? -32000, message }, id: null },
    status as 400,
  );

/** MCP headend over Streamable HTTP (one MCP session per client): every agent is a tool. */
export function createMcpHeadend(options: McpHeadendOptions): Headend {
  const { app, admission, tokens, headendId } = createHeadendBase(
    'mcp',
    options,
    { respond: respondMcp },
    (base) => base.use('*', hostCheck(options.allowedHostnames ?? LOOPBACK_HOSTNAMES)),
  );
  const path = options.path ?? '/mcp';
  const sessions = new McpSessions(({ requestSignals }) =>
    createAgentToolsServer({
      catalog: options.catalog,
      admission,
      headendId,
      requestSignal: (requestId) => {
        const signal = requestSignals.get(requestId);
        requestSignals.delete(requestId);
        return signal;
      },
    }),
  );
  app.all(path, async (c) => {
    if (admission.draining && c.req.header('mcp-session-id') === undefined) {
      const response = respondMcp(c, 503, 'draining', 'the server is shutting down');
      response.headers.set('retry-after', String(admission.retryAfterSeconds));
      return response;
    }
    return sessions.handle(c.req.raw);
  });
  return {
    kind: 'mcp',
    app,
    admission,
    authRequired: tokens !== undefined,
    dispose: () => sessions.closeAll(),
  };
}
