import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { ANONYMOUS_PRINCIPAL, type Principal, Principals } from '@agent/headends/http';

/**
 * The viewer's cookie after `/?token=`: a random viewer session id (never the token), HttpOnly,
 * SameSite=Strict. It means something to the viewer alone: the API faces take bearer tokens only.
 */
export const VIEWER_COOKIE = 'agent_viewer_session';

/** How long a viewer session lives: 12 hours. */
export const VIEWER_SESSION_SECONDS = 12 * 60 * 60;

/** Viewer sessions alive at once; opening one more ends the oldest. */
export const MAX_VIEWER_SESSIONS = 256;

export interface ViewerAuthOptions {
  /** Accepted tokens; with `operatorTokens` both empty, the viewer is open (`--allow-no-auth`). */
  tokens: readonly string[];
  operatorTokens?: readonly string[];
  maxSessions?: number;
  sessionSeconds?: number;
  now?: () => number;
}

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A cookie's value in a request's `Cookie` header. */
function cookieValue(request: IncomingMessage, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=');
  }
  return undefined;
}

/** The bearer token of a request's `Authorization` header. */
function bearerToken(request: IncomingMessage): string | undefined {
  const header = request.headers.authorization;
  return (header === undefined ? null : /^Bearer\s+(.+)$/i.exec(header.trim()))?.[1]?.trim();
}

/**
 * Who a viewer request is: a bearer token's principal, or the principal that exchanged its token
 * for the viewer session in the cookie. Sessions are random, expire, and are bounded in number.
 */
export class ViewerAuth {
  private readonly accepted: readonly string[];
  private readonly principals: Principals;
  /** Session id -> its principal and when it ends; oldest first (insertion order). */
  private readonly sessions = new Map<string, { principal: Principal; endsAt: number }>();
  private readonly maxSessions: number;
  private readonly sessionMs: number;
  private readonly now: () => number;

  constructor(options: ViewerAuthOptions) {
    const operatorTokens = options.operatorTokens ?? [];
    this.accepted = [...options.tokens, ...operatorTokens].filter((token) => token !== '');
    this.principals = new Principals(operatorTokens);
    this.maxSessions = options.maxSessions ?? MAX_VIEWER_SESSIONS;
    this.sessionMs = (options.sessionSeconds ?? VIEWER_SESSION_SECONDS) * 1000;
    this.now = options.now ?? Date.now;
  }

  get open(): boolean {
    return this.accepted.length === 0;
  }

  /** The principal of an accepted token; undefined for any other. */
  principalOfToken(token: string | undefined): Principal | undefined {
    if (this.open) return ANONYMOUS_PRINCIPAL;
    if (token === undefined || !this.accepted.some((expected) => sameToken(token, expected)))
      return undefined;
    return this.principals.of(token);
  }

  /** The request's principal (bearer token, else viewer session cookie); undefined: not let in. */
  principalOf(request: IncomingMessage): Principal | undefined {
    if (this.open) return ANONYMOUS_PRINCIPAL;
    const bearer = bearerToken(request);
    if (bearer !== undefined) return this.principalOfToken(bearer);
    const id = cookieValue(request, VIEWER_COOKIE);
    const session = id === undefined ? undefined : this.sessions.get(id);
    if (session === undefined) return undefined;
    if (session.endsAt > this.now()) return session.principal;
    this.sessions.delete(id!);
    return undefined;
  }

  /** A new viewer session for `principal`: the `Set-Cookie` value that carries it. */
  startSession(principal: Principal): string {
    const now = this.now();
    for (const [id, session] of this.sessions) if (session.endsAt <= now) this.sessions.delete(id);
    while (this.sessions.size >= this.maxSessions) {
      const oldest = this.sessions.keys().next().value as string;
      this.sessions.delete(oldest);
    }
    const id = randomBytes(32).toString('base64url');
    this.sessions.set(id, { principal, endsAt: now + this.sessionMs });
    const seconds = Math.floor(this.sessionMs / 1000);
    return `${VIEWER_COOKIE}=${id}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${seconds}`;
  }

  /** Viewer sessions held now (expired ones included until they are next looked at). */
  get size(): number {
    return this.sessions.size;
  }
}
