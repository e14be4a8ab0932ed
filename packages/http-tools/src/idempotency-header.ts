import type { OutgoingRequest } from './bounded-fetch.js';
import { HttpToolsError } from './errors.js';

/** The header a call's idempotency key goes in unless the API or the tool names another. */
export const DEFAULT_IDEMPOTENCY_HEADER = 'Idempotency-Key';

/** HTTP field names are tokens (RFC 9110 section 5.1). */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** Whether `name` can be an HTTP header's name (a token: letters, digits and !#$%&'*+-.^_`|~). */
export function isHttpHeaderName(name: string): boolean {
  return HEADER_NAME.test(name);
}

/** 128 characters is more than any real header name. */
const MAX_KEY_HEADER_CHARS = 128;

/**
 * Headers the request sets itself (credentials, the body's description, the connection): the key
 * may not take their place.
 */
const RESERVED = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'host',
  'content-type',
  'content-length',
  'transfer-encoding',
  'connection',
  'accept',
]);

/** Why `name` cannot carry the idempotency key (`idempotencyHeader`), or undefined when it can. */
export function idempotencyHeaderFault(name: unknown, authHeader: string | undefined): string | undefined {
  const allowed = `an HTTP header name (letters, digits and !#$%&'*+-.^_\`|~, 1 to 128) other than ${[...RESERVED].join(', ')}${authHeader === undefined ? '' : ` and the API key's header`}, or false to send no key`;
  if (name === false) return undefined;
  if (typeof name !== 'string' || name.length > MAX_KEY_HEADER_CHARS || !isHttpHeaderName(name))
    return allowed;
  const lower = name.toLowerCase();
  if (RESERVED.has(lower) || lower === authHeader?.toLowerCase()) return allowed;
  return undefined;
}

/** The session's keys are 64 hex digits; any printable ASCII up to 256 characters is sent. */
const KEY_VALUE = /^[\x21-\x7e]{1,256}$/;

/**
 * Puts the call's idempotency key on its request under `header` (`false`: not at all). It replaces
 * a value the tool's headers or the model's arguments put there: a key the model makes up would
 * differ when the call is made again after a crash, the session's does not.
 */
export function applyIdempotencyKey(
  request: OutgoingRequest,
  header: string | false,
  key: string | undefined,
): void {
  if (key === undefined || header === false) return;
  if (!KEY_VALUE.test(key))
    throw new HttpToolsError(
      'the idempotency key of the call cannot be sent in an HTTP header (1 to 256 printable ASCII characters, no spaces)',
    );
  request.headers.set(header, key);
  request.idempotencyHeader = header;
}
