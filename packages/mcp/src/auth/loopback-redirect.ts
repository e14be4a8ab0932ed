import { createServer, type Server } from 'node:http';
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

/**
 * Listens on 127.0.0.1 (`port`, default any free one) at `/callback` for the authorization
 * server's redirect (RFC 8252 loopback redirect). A redirect with another `state` is refused
 * (it is not the login we started) and the login keeps waiting.
 */
export async function startLoopbackRedirect(
  options: { port?: number; timeoutMs?: number } = {},
): Promise<LoopbackRedirect> {
  let expected: string | null | undefined;
  let settle: { resolve: (code: string) => void; reject: (error: Error) => void } | undefined;
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/callback') {
      response.writeHead(404).end();
      return;
    }
    const state = url.searchParams.get('state');
    if (settle === undefined || state !== expected) {
      response
        .writeHead(400, { 'content-type': 'text/html' })
        .end(PAGE('This is not the login that is waiting.'));
      return;
    }
    const error = url.searchParams.get('error');
    const code = url.searchParams.get('code');
    if (error !== null || code === null) {
      const reason = `${error ?? 'no code'}${url.searchParams.get('error_description') ? `: ${url.searchParams.get('error_description')}` : ''}`;
      response
        .writeHead(400, { 'content-type': 'text/html' })
        .end(PAGE('Authorization failed. You can close this window.'));
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
    settle = undefined;
  });
  await new Promise<void>((listening, failed) => {
    server.once('error', failed);
    server.listen(options.port ?? 0, '127.0.0.1', () => listening());
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  const timeoutMs = options.timeoutMs ?? DEFAULT_LOGIN_TIMEOUT_MS;
  return {
    redirectUrl: `http://127.0.0.1:${port}/callback`,
    code(state) {
      expected = state;
      return new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => {
          settle = undefined;
          reject(
            new AgentError('mcp_unavailable', `no approval arrived within ${Math.round(timeoutMs / 1000)} s`),
          );
        }, timeoutMs);
        settle = {
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
    },
    close: () =>
      new Promise<void>((closed) => {
        server.closeAllConnections();
        server.close(() => closed());
      }),
  };
}
