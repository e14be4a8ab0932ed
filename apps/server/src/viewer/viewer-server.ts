import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  applyConnectionLimits,
  type ConnectionLimits,
  hostProblem,
  httpServerOptions,
  LOOPBACK_HOSTNAMES,
  resolveConnectionLimits,
} from '@agent/headends/http';
import { errorMessage } from '@agent/protocol/util';
import { evalRoute } from './eval-routes.js';
import { type EvalRunSource, withEvalSessions } from './eval-source.js';
import { json, type Replied, send } from './http-reply.js';
import { type SessionSource, visibleSessions } from './session-source.js';
import type { SessionSummary } from './view-model.js';
import { LOGIN_PAGE, PAGE, SECURITY_HEADERS, type ViewerAssets } from './viewer-assets.js';
import { ViewerAuth } from './viewer-auth.js';
import { openStream, type StreamLimits } from './viewer-stream.js';

/** The viewer's bounds on clients are the faces' (`ConnectionLimits`, the same defaults). */
export interface ViewerServerOptions extends StreamLimits, ConnectionLimits {
  source: SessionSource;
  assets: ViewerAssets;
  /** Accepted tokens; empty (with no operator tokens) only with `--allow-no-auth` on loopback. */
  tokens: readonly string[];
  /** Hostnames accepted in `Host` and `Origin` (default `LOOPBACK_HOSTNAMES`); others get 403. */
  allowedHostnames?: readonly string[];
  /** Tokens that see every client's sessions; the others see their own. */
  operatorTokens?: readonly string[];
  host: string;
  port: number;
  /** `--evals <dir>`: eval runs and their cases' sessions, shown to operators only. */
  evals?: EvalRunSource;
}

export interface ViewerServer {
  url: string;
  close(): Promise<void>;
}

const STATUSES = new Set(['running', 'ok', 'failed']);

/** Listens with the viewer: the page, its assets, JSON endpoints and one SSE stream. */
export async function startViewerServer(options: ViewerServerOptions): Promise<ViewerServer> {
  const streams = new Set<ServerResponse>();
  const limits = resolveConnectionLimits(options);
  const auth = new ViewerAuth({ tokens: options.tokens, operatorTokens: options.operatorTokens ?? [] });
  const server = createServer(httpServerOptions(limits), (request, response) => {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) response.setHeader(name, value);
    handle(request, response, { ...options, auth }, streams).catch((error: unknown) => {
      if (!response.headersSent)
        json(response, 500, { error: `the viewer could not answer: ${errorMessage(error)}` });
      else response.end();
    });
  });
  applyConnectionLimits(server, limits);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    close: () => closeServer(server, streams),
  };
}

function closeServer(server: Server, streams: Set<ServerResponse>): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    for (const stream of streams) stream.end();
    server.closeAllConnections();
  });
}

async function handle(
  request: IncomingMessage,
  response: ServerResponse,
  options: ViewerServerOptions & { auth: ViewerAuth },
  streams: Set<ServerResponse>,
): Promise<Replied> {
  const url = new URL(request.url ?? '/', 'http://viewer');
  const foreign = hostProblem(
    request.headers.host,
    request.headers.origin,
    options.allowedHostnames ?? LOOPBACK_HOSTNAMES,
  );
  if (foreign !== undefined) return json(response, 403, { error: `${foreign} (DNS rebinding protection)` });
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return json(response, 405, { error: `${request.method} is not allowed: the viewer only answers GET` });
  }
  if (url.pathname === '/assets/app.js') return send(response, 200, 'text/javascript', options.assets.script);
  if (url.pathname === '/assets/app.css') return send(response, 200, 'text/css', options.assets.style);
  const { auth } = options;
  const given = url.pathname === '/' ? url.searchParams.get('token') : null;
  if (given !== null) {
    // The token is exchanged for a viewer session: the cookie never holds the token.
    const exchanged = auth.principalOfToken(given);
    if (exchanged === undefined) return send(response, 401, 'text/html', LOGIN_PAGE);
    response.setHeader('set-cookie', auth.startSession(exchanged));
    response.setHeader('location', '/');
    return send(response, 303, 'text/plain', 'signed in; see /');
  }
  const principal = auth.principalOf(request);
  if (principal === undefined) {
    if (url.pathname === '/') return send(response, 401, 'text/html', LOGIN_PAGE);
    return json(response, 401, {
      error: 'missing or invalid token: send Authorization: Bearer <token>, or open /?token=<token> once',
    });
  }
  const visible = visibleSessions(options.source, principal);
  // A case's session of an eval run is an ownerless record: operators only, like the runs.
  const source =
    options.evals !== undefined && principal.operator ? withEvalSessions(visible, options.evals) : visible;
  if (url.pathname === '/') return send(response, 200, 'text/html', PAGE);
  if (url.pathname === '/api/evals' || url.pathname.startsWith('/api/evals/'))
    return await evalRoute(response, url.pathname, options.evals, principal);
  if (url.pathname === '/api/sessions') return await listSessions(response, source, url);
  if (url.pathname === '/api/stream')
    return openStream(request, response, { ...options, source }, streams, url);
  // A session id (`:` may come percent-encoded): letters, digits, `.`, `_`, `:` and `-`.
  const id = /^\/api\/sessions\/((?:[\w.-]|:|%3[Aa]){1,384})$/.exec(url.pathname)?.[1]?.replace(/%3a/gi, ':');
  if (id !== undefined && id.length <= 128) {
    const view = await source.get(id);
    if (view === undefined)
      return json(response, 404, {
        error: `no session ${id} (finished ones are kept for a while, and records read from persistence.sessionsDir)`,
      });
    return json(response, 200, view);
  }
  return json(response, 404, {
    error: `no route ${url.pathname}: see /, /api/sessions, /api/sessions/<id>, /api/stream, /api/evals, /api/evals/<runId>`,
  });
}

async function listSessions(response: ServerResponse, source: SessionSource, url: URL): Promise<Replied> {
  const status = url.searchParams.get('status');
  if (status !== null && status !== '' && !STATUSES.has(status)) {
    return json(response, 400, {
      error: `status: expected one of running, ok, failed, not ${JSON.stringify(status)}`,
    });
  }
  return json(response, 200, {
    sessions: filterSessions(await source.list(), url.searchParams.get('agent'), status),
  });
}

/** The sessions of `agent` with `status` (either null or empty: any). */
export function filterSessions(
  sessions: readonly SessionSummary[],
  agent: string | null,
  status: string | null,
): SessionSummary[] {
  return sessions.filter(
    (session) =>
      (agent === null || agent === '' || session.agent === agent) &&
      (status === null || status === '' || session.status === status),
  );
}
