import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { AgentError } from '@agent/protocol';

/** How long a login waits for the user to approve (default 5 minutes). */
export const DEFAULT_LOGIN_TIMEOUT_MS = 5 * 60 * 1000;

/** The login's loopback redirect endpoint: it receives the authorization code once. */
export interface LoopbackRedirect {
  readonly redirectUrl: string;
  /** Resolves with the code of a redirect whose `state` matches; rejects on an error or timeout. */
  code(state: string | null): Promise<string>;
  close(): Promise<void>;
}

const PAGE = (text: string) => `<!doctype html><meta charset="utf-8"><title>agent</title><p>${text}</p>`;

/** Why the authorization server refused, from the redirect's `error` and `error_description`. */
function refusalReason(params: URLSearchParams): string {
  const description = params.get('error_description');
  return `${params.get('error') ?? 'no code'}${description ? `: ${description}` : ''}`;
}

/** The login waiting for its redirect, if any: the `state` it expects and how to settle it. */
class WaitingLogin {
  #expected: string | null | undefined;
  #settle: { resolve: (code: string) => void; reject: (error: Error) => void } | undefined;

  /** Waits for the redirect carrying `state`; rejects after `timeoutMs`. */
  wait(state: string | null, timeoutMs: number): Promise<string> {
    this.#expected = state;
    return new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#settle = undefined;
        reject(
          new AgentError('mcp_unavailable', `no approval arrived within ${Math.round(timeoutMs / 1000)} s`),
        );
      }, timeoutMs);
      this.#settle = {
        resolve: (code) => {
          clearTimeout(timer);
          resolve(code);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
    });
  }

  /** Answers one request: only a `/callback` with the waiting login's `state` settles it. */
  answer(request: IncomingMessage, response: ServerResponse): void {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/callback') {
      response.writeHead(404).end();
      return;
    }
    const settle = this.#settle;
    if (settle === undefined || url.searchParams.get('state') !== this.#expected) {
      response
        .writeHead(400, { 'content-type': 'text/html' })
        .end(PAGE('This is not the login that is waiting.'));
      return;
    }
    const code = url.searchParams.get('code');
    if (url.searchParams.get('error') !== null || code === null) {
      response
        .writeHead(400, { 'content-type': 'text/html' })
        .end(PAGE('Authorization failed. You can close this window.'));
      const reason = refusalReason(url.searchParams);
      settle.reject(
        new AgentError(
          'mcp_unavailable',
          `the authorization server refused the login (${reason.slice(0, 300)})`,
        ),
      );
    } else {
      response
        .writeHead(200, { 'content-type': 'text/html' })
        .end(PAGE('Logged in. You can close this window.'));
      settle.resolve(code);
    }
    this.#settle = undefined;
  }
}

/**
 * Listens on 127.0.0.1 (`port`, default any free one) at `/callback` for the authorization
 * server's redirect (RFC 8252 loopback redirect). A redirect with another `state` is refused
 * (it is not the login we started) and the login keeps waiting.
 */
export async function startLoopbackRedirect(
  options: { port?: number; timeoutMs?: number } = {},
): Promise<LoopbackRedirect> {
  const login = new WaitingLogin();
  const server: Server = createServer((request, response) => login.answer(request, response));
  await new Promise<void>((listening, failed) => {
    server.once('error', failed);
    server.listen(options.port ?? 0, '127.0.0.1', () => listening());
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  const timeoutMs = options.timeoutMs ?? DEFAULT_LOGIN_TIMEOUT_MS;
  return {
    redirectUrl: `http://127.0.0.1:${port}/callback`,
    code: (state) => login.wait(state, timeoutMs),
    close: () =>
      new Promise<void>((closed) => {
        server.closeAllConnections();
        server.close(() => closed());
      }),
  };
}
