import { createHash } from 'node:crypto';
import { SESSION_OWNER_LABEL, type SessionSnapshot } from '@agent/protocol';
import type { Context, MiddlewareHandler } from 'hono';
import { isPublicPath, presentedToken } from './http-guards.js';

/**
 * Who a request acts for (`docs/security.md`, "Principals and operator tokens"). The sessions and
 * conversations a principal starts are its own: another principal gets 404 for them. An
 * operator sees and decides every session.
 */
export interface Principal {
  /** Stable across processes and restarts: a hash of the token, never the token. */
  readonly id: string;
  readonly operator: boolean;
}

/**
 * The one principal of a server without tokens (`allowNoAuth`, loopback only) and of MCP over
 * stdio: whoever reaches it can reach everything, so it is the operator.
 */
export const ANONYMOUS_PRINCIPAL: Principal = { id: 'anonymous', operator: true };

/** The owner of the Slack face's runs (Slack's users hold no token of this server). */
export const SLACK_PRINCIPAL_ID = 'slack';

/** The principal id of a token: `p-` and 24 hex digits of its SHA-256 (with a domain prefix). */
export function principalId(token: string): string {
  return `p-${createHash('sha256').update(`agent-principal\0${token}`).digest('hex').slice(0, 24)}`;
}

/** Maps accepted tokens to their principals; an operator token makes an operator. */
export class Principals {
  private readonly operators: ReadonlySet<string>;

  constructor(operatorTokens: readonly string[] = []) {
    this.operators = new Set(operatorTokens.filter((token) => token.length > 0));
  }

  /** The principal of an accepted token. */
  of(token: string): Principal {
    return { id: principalId(token), operator: this.operators.has(token) };
  }
}

/** The owner a stored session was started by (undefined: by no client, e.g. the CLI). */
export function sessionOwner(snapshot: SessionSnapshot): string | undefined {
  return snapshot.labels?.[SESSION_OWNER_LABEL];
}

/** True when `principal` may see (read, decide, resume) what `owner` started. */
export function canSee(principal: Principal, owner: string | undefined): boolean {
  return principal.operator || owner === principal.id;
}

declare module 'hono' {
  interface ContextVariableMap {
    principal: Principal;
  }
}

/**
 * Sets the request's principal from the token the guards accepted (they run first); with no
 * tokens (`tokens` undefined), the anonymous principal. Public paths (health) get none.
 */
export function principalMiddleware(options: {
  tokens: readonly string[] | undefined;
  principals: Principals;
  acceptApiKey?: boolean;
  publicPaths?: readonly string[];
}): MiddlewareHandler {
  return async (c, next) => {
    if (options.tokens === undefined) c.set('principal', ANONYMOUS_PRINCIPAL);
    else if (!isPublicPath(c.req.path, options.publicPaths)) {
      const token = presentedToken(c, options.acceptApiKey === true);
      if (token !== undefined) c.set('principal', options.principals.of(token));
    }
    await next();
  };
}

/** The request's principal (set by `principalMiddleware`). */
export function requestPrincipal(c: Context): Principal {
  const principal = c.get('principal');
  // A route reached without the middleware is a bug: fail closed, as a principal owning nothing.
  return principal ?? { id: 'none', operator: false };
}
