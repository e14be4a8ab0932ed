import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** The cookie the page carries after `/?token=` (HttpOnly, SameSite=Strict, path /). */
export const TOKEN_COOKIE = 'agent_viewer_token';

/** How long the cookie lives: 12 hours. */
const COOKIE_SECONDS = 12 * 60 * 60;

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The token a request carries: `Authorization: Bearer`, else the viewer's cookie. */
export function requestToken(request: IncomingMessage): string | undefined {
  const header = request.headers.authorization;
  const bearer = header === undefined ? null : /^Bearer\s+(.+)$/i.exec(header.trim());
  if (bearer?.[1] !== undefined) return bearer[1].trim();
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name !== TOKEN_COOKIE) continue;
    try {
      return decodeURIComponent(rest.join('='));
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** True when `token` is one of `tokens`, or when there are none (`--allow-no-auth`). */
export function tokenAccepted(tokens: readonly string[], token: string | undefined): boolean {
  if (tokens.length === 0) return true;
  return token !== undefined && tokens.some((expected) => sameToken(token, expected));
}

/** The `Set-Cookie` value that keeps `token` for the page's later requests (fetch, EventSource). */
export function tokenCookie(token: string): string {
  return `${TOKEN_COOKIE}=${encodeURIComponent(token)}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${COOKIE_SECONDS}`;
}
