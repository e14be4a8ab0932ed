import { timingSafeEqual } from 'node:crypto';
import { errorMessage } from '@agent/protocol/util';
import type { Context, Hono, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { AdmissionError } from './admission.js';

/** What went wrong at the HTTP level, mapped by each headend to its own error body. */
export type HttpErrorKind =
  | 'unauthorized'
  | 'forbidden'
  | 'too_large'
  | 'bad_request'
  | 'not_found'
  | 'conflict'
  | 'queue_full'
  | 'draining'
  | 'server_error';

export type ErrorResponder = (c: Context, status: number, kind: HttpErrorKind, message: string) => Response;

const STATUS: Record<HttpErrorKind, number> = {
  unauthorized: 401,
  forbidden: 403,
  too_large: 413,
  bad_request: 400,
  not_found: 404,
  conflict: 409,
  queue_full: 429,
  draining: 503,
  server_error: 500,
};

export function httpError(
  c: Context,
  respond: ErrorResponder,
  kind: HttpErrorKind,
  message: string,
): Response {
  return respond(c, STATUS[kind], kind, message);
}

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The token a request presents: `Authorization: Bearer` or, when allowed, `x-api-key`. */
export function presentedToken(c: Context, acceptApiKey: boolean): string | undefined {
  const header = c.req.header('authorization');
  const match = header === undefined ? null : /^Bearer\s+(.+)$/i.exec(header.trim());
  if (match?.[1] !== undefined) return match[1].trim();
  if (acceptApiKey) return c.req.header('x-api-key')?.trim();
  return undefined;
}

export interface GuardOptions {
  tokens: readonly string[] | undefined;
  bodyLimitBytes: number;
  respond: ErrorResponder;
  acceptApiKey?: boolean;
  /**
   * Paths that need no token (health checks, agent cards): exact paths, where a `*` segment
   * stands for any one segment (the A2A face's per-agent card path).
   */
  publicPaths?: readonly string[];
}

/** True when `path` is one of `publicPaths` (a `*` segment matches any one non-empty segment). */
export function isPublicPath(path: string, publicPaths: readonly string[] | undefined): boolean {
  if (publicPaths === undefined) return false;
  const segments = path.split('/');
  return publicPaths.some((pattern) => {
    if (!pattern.includes('*')) return pattern === path;
    const wanted = pattern.split('/');
    return (
      wanted.length === segments.length &&
      wanted.every((part, i) => (part === '*' ? segments[i] !== '' : part === segments[i]))
    );
  });
}

/** Auth and body limit on every route of `app`. */
export function installGuards(app: Hono, options: GuardOptions): void {
  const auth: MiddlewareHandler = async (c, next) => {
    if (options.tokens === undefined || isPublicPath(c.req.path, options.publicPaths)) return next();
    const given = presentedToken(c, options.acceptApiKey === true);
    if (given === undefined) {
      return httpError(
        c,
        options.respond,
        'unauthorized',
        'missing token: send Authorization: Bearer <token>',
      );
    }
    if (!options.tokens.some((token) => sameToken(given, token))) {
      return httpError(c, options.respond, 'unauthorized', 'invalid token');
    }
    return next();
  };
  app.onError((error, c) =>
    httpError(c, options.respond, 'server_error', `internal error: ${error.message}`),
  );
  app.use('*', auth);
  app.use('*', bodyLimitGuard(options));
}

/**
 * The body limit. A body of declared length is judged by its `content-length` (Node's parser
 * never reads past it), without touching `c.req.raw.body`: on @hono/node-server that getter
 * builds a whole web `Request` and stream over the socket, the costliest part of a small POST.
 * Chunked bodies are counted as they arrive by Hono's `bodyLimit`.
 */
function bodyLimitGuard(options: GuardOptions): MiddlewareHandler {
  const tooLarge = (c: Context) =>
    httpError(
      c,
      options.respond,
      'too_large',
      `request body is larger than the limit of ${options.bodyLimitBytes} bytes`,
    );
  const counted = bodyLimit({ maxSize: options.bodyLimitBytes, onError: tooLarge });
  return async (c, next) => {
    const length = c.req.header('content-length');
    if (length === undefined || c.req.header('transfer-encoding') !== undefined) return counted(c, next);
    return Number.parseInt(length, 10) > options.bodyLimitBytes ? tooLarge(c) : next();
  };
}

/** The request body as a JSON object, or an error response saying what is wrong with it. */
export async function readJsonObject(
  c: Context,
  respond: ErrorResponder,
): Promise<{ ok: true; body: Record<string, unknown> } | { ok: false; response: Response }> {
  const text = await c.req.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    const detail = errorMessage(error);
    return { ok: false, response: httpError(c, respond, 'bad_request', `malformed JSON body: ${detail}`) };
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { ok: false, response: httpError(c, respond, 'bad_request', 'the body must be a JSON object') };
  }
  return { ok: true, body: body as Record<string, unknown> };
}

/** The response for a refused admission, with `Retry-After`. */
export function admissionResponse(c: Context, respond: ErrorResponder, error: AdmissionError): Response {
  const response = httpError(c, respond, error.refusal, error.message);
  response.headers.set('retry-after', String(error.retryAfterSeconds));
  return response;
}
