import { Hono } from 'hono';
import { Admission } from './admission.js';
import { DEFAULT_BODY_LIMIT_BYTES, type HeadendOptions, resolveTokens } from './headend-options.js';
import { hostCheck, LOOPBACK_HOSTNAMES } from './host-check.js';
import { type GuardOptions, httpError, installGuards } from './http-guards.js';
import { Principals, principalMiddleware } from './principal.js';

/** What every headend starts from: its tokens, its admission queue, a guarded app and its id. */
export interface HeadendBase {
  app: Hono;
  admission: Admission;
  tokens: readonly string[] | undefined;
  /** The principal of each accepted token (`requestPrincipal(c)` gives a request's). */
  principals: Principals;
  headendId: string;
}

/**
 * Builds the shared part of a headend: resolves its tokens (refusing no auth unless allowed),
 * its concurrency limit and FIFO queue, and a Hono app whose every route checks the Host and
 * Origin (DNS rebinding), the token and the body limit, and knows the request's principal.
 */
export function createHeadendBase(
  kind: string,
  options: HeadendOptions,
  guards: Omit<GuardOptions, 'tokens' | 'bodyLimitBytes'>,
): HeadendBase {
  const tokens = resolveTokens(kind, options);
  const admission = new Admission({
    limit: options.concurrency,
    queueSize: options.queueSize,
    retryAfterSeconds: options.retryAfterSeconds,
    gate: options.admissionGate,
  });
  const app = new Hono();
  const allowed = options.allowedHostnames ?? LOOPBACK_HOSTNAMES;
  app.use(
    '*',
    hostCheck(allowed, (c, message) => httpError(c, guards.respond, 'forbidden', message)),
  );
  installGuards(app, {
    tokens,
    bodyLimitBytes: options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES,
    ...guards,
  });
  const principals = new Principals(options.operatorTokens);
  app.use('*', principalMiddleware({ tokens, principals, ...guards }));
  return { app, admission, tokens, principals, headendId: options.headendId ?? kind };
}
