/** Default wait for a person's answer to an elicitation: 10 minutes, as the library's approver. */
export const DEFAULT_MCP_APPROVAL_TIMEOUT_MS = 600_000;
/** Open MCP sessions allowed at once per headend (default). */
export const DEFAULT_MCP_MAX_SESSIONS = 256;
/** Open MCP sessions one token may hold at once (default). */
export const DEFAULT_MCP_MAX_SESSIONS_PER_TOKEN = 64;
/** A session with no request and no running call for this long is closed (default 15 minutes). */
export const DEFAULT_MCP_SESSION_IDLE_MS = 15 * 60 * 1000;

/** The bounds of a Streamable HTTP headend's sessions. */
export interface McpSessionLimits {
  maxSessions: number;
  maxSessionsPerToken: number;
  idleMs: number;
  /** Seconds sent in `Retry-After` with a refused `initialize`. */
  retryAfterSeconds: number;
}

/** Counts open sessions in total and per token, and says why one more is refused. */
export class SessionCounts {
  private total = 0;
  private readonly perToken = new Map<string, number>();

  constructor(private readonly limits: Pick<McpSessionLimits, 'maxSessions' | 'maxSessionsPerToken'>) {}

  /** Why a new session for `token` is refused, or undefined when it fits. Without auth only the total counts. */
  refusal(token: string | undefined): string | undefined {
    const { maxSessions, maxSessionsPerToken } = this.limits;
    const advice = 'end one with DELETE, or retry once idle sessions expire';
    if (this.total >= maxSessions) {
      return `too many open MCP sessions: ${this.total} (the limit is ${maxSessions}); ${advice}`;
    }
    const held = token === undefined ? 0 : (this.perToken.get(token) ?? 0);
    if (token !== undefined && held >= maxSessionsPerToken) {
      return `too many open MCP sessions for this token: ${held} (the limit per token is ${maxSessionsPerToken}); ${advice}`;
    }
    return undefined;
  }

  add(token: string | undefined): void {
    this.total += 1;
    if (token !== undefined) this.perToken.set(token, (this.perToken.get(token) ?? 0) + 1);
  }

  remove(token: string | undefined): void {
    this.total -= 1;
    if (token === undefined) return;
    const held = (this.perToken.get(token) ?? 1) - 1;
    if (held > 0) this.perToken.set(token, held);
    else this.perToken.delete(token);
  }
}
