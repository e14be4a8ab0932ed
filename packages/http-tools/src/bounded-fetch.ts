import { HttpToolsError } from './errors.js';

/** A request as sent (after templates and auth). */
export interface OutgoingRequest {
  method: string;
  url: URL;
  headers: Headers;
  body?: string;
  /**
   * The header that carries the call's idempotency key: it follows the request to another origin
   * on a redirect (it names the call, it is no credential), so a 307 sent on is applied once too.
   */
  idempotencyHeader?: string;
}

export interface BoundedResponse {
  status: number;
  statusText: string;
  contentType: string;
  /** The body's first `maxBytes` bytes, decoded as UTF-8. */
  text: string;
  /** The body was longer than `maxBytes` (the rest was never read). */
  truncated: boolean;
  bytesRead: number;
  /** Where the answer came from (after redirects). */
  url: URL;
}

/** A redirect the call may not follow, or too many of them. */
export class RedirectRefused extends HttpToolsError {}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** `host:port` as written in an allow-list entry (the default port of the scheme left out). */
export function hostKey(url: URL): string {
  return url.host.toLowerCase();
}

/**
 * Sends a request with fetch, following redirects by hand and only to `allowed` hosts, never from
 * https to http, with credentials only on the request's own origin, and reads at most `maxBytes`
 * bytes of the body (the stream is cancelled past that).
 */
export async function boundedFetch(
  request: OutgoingRequest,
  options: { allowed: ReadonlySet<string>; maxBytes: number; maxRedirects: number; signal: AbortSignal },
): Promise<BoundedResponse> {
  let current = request;
  for (let hop = 0; ; hop++) {
    if (!options.allowed.has(hostKey(current.url)))
      throw new RedirectRefused(`the host ${current.url.host} is not among the hosts this API may reach`);
    const response = await fetch(current.url, {
      method: current.method,
      headers: current.headers,
      ...(current.body === undefined ? {} : { body: current.body }),
      redirect: 'manual',
      signal: options.signal,
    });
    const location = response.headers.get('location');
    if (!REDIRECTS.has(response.status) || location === null) return readBody(response, current.url, options);
    await response.body?.cancel();
    if (hop >= options.maxRedirects)
      throw new RedirectRefused(`more than ${options.maxRedirects} redirects (last to ${location})`);
    const next = new URL(location, current.url);
    // Checked before the host: an allowed host over http would still carry the request in clear.
    if (current.url.protocol === 'https:' && next.protocol === 'http:')
      throw new RedirectRefused(
        `redirect from https to http://${next.host} refused: a redirect may not leave https`,
      );
    if (!options.allowed.has(hostKey(next)) || (next.protocol !== 'http:' && next.protocol !== 'https:'))
      throw new RedirectRefused(
        `redirect to ${next.protocol}//${next.host} refused: only the hosts this API names may be contacted`,
      );
    const keepsBody = response.status === 307 || response.status === 308;
    const headers = redirectHeaders(current, next);
    if (!keepsBody) headers.delete('content-type');
    current = {
      method: keepsBody || current.method === 'HEAD' ? current.method : 'GET',
      url: next,
      headers,
      ...(keepsBody && current.body !== undefined ? { body: current.body } : {}),
      ...(current.idempotencyHeader === undefined ? {} : { idempotencyHeader: current.idempotencyHeader }),
    };
  }
}

/** Headers that describe the content, not who asks: the only ones that go to another origin. */
const CONTENT_HEADERS = ['accept', 'content-type'];

/**
 * The headers of the next hop. On the same origin (scheme, host and port) all of them; on another
 * origin only `accept`, `content-type` and the idempotency key: credentials (the auth's, the
 * configured headers, cookies) are for the origin the API names.
 */
function redirectHeaders(current: OutgoingRequest, next: URL): Headers {
  if (next.origin === current.url.origin) return new Headers(current.headers);
  const headers = new Headers();
  const carried = current.idempotencyHeader === undefined ? [] : [current.idempotencyHeader];
  for (const name of [...CONTENT_HEADERS, ...carried]) {
    const value = current.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  return headers;
}

async function readBody(
  response: Response,
  url: URL,
  options: { maxBytes: number },
): Promise<BoundedResponse> {
  const chunks: Uint8Array[] = [];
  let bytesRead = 0;
  let truncated = false;
  const reader = response.body?.getReader();
  if (reader !== undefined) {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const room = options.maxBytes - bytesRead;
      if (value.byteLength > room) {
        chunks.push(value.subarray(0, room));
        bytesRead += room;
        truncated = true;
        await reader.cancel();
        break;
      }
      chunks.push(value);
      bytesRead += value.byteLength;
    }
  }
  const text = new TextDecoder('utf-8', { fatal: false }).decode(Buffer.concat(chunks));
  return {
    status: response.status,
    statusText: response.statusText,
    contentType: response.headers.get('content-type') ?? '',
    // A multi-byte character cut at the cap decodes to U+FFFD: dropped.
    text: truncated ? text.replace(/\uFFFD$/, '') : text,
    truncated,
    bytesRead,
    url,
  };
}
