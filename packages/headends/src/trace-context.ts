import type { Context } from 'hono';

/** The longest `traceparent` passed on (a valid one is 55 characters; later versions may add fields). */
const MAX_TRACEPARENT = 512;

/**
 * The request's W3C `traceparent` header as a run option, so the run's spans continue the
 * caller's trace. The runtime parses it (and ignores a malformed one); a header that is not a
 * string of sensible length is not passed on.
 */
export function traceparentOption(value: unknown): { traceparent?: string } {
  const header = Array.isArray(value) ? value[0] : value;
  return typeof header === 'string' && header.length > 0 && header.length <= MAX_TRACEPARENT
    ? { traceparent: header }
    : {};
}

/** `traceparentOption` of an HTTP request's header. */
export function requestTraceparent(c: Context): { traceparent?: string } {
  return traceparentOption(c.req.header('traceparent'));
}
