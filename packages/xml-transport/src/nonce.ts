import { XmlTransportError } from './errors.js';

/** What a nonce may contain: the characters the tag name grammar accepts, at most 64 of them. */
const NONCE_SHAPE = /^[A-Za-z0-9_-]{1,64}$/;
const HEX = '0123456789abcdef';

/** Random bytes drawn in blocks: one `getRandomValues` call costs as much as a small session's own work. */
const POOL_BYTES = 1024;
const NONCE_BYTES = 4;
const pool = new Uint8Array(POOL_BYTES);
let poolOffset = POOL_BYTES;

/** A fresh session nonce: 8 lowercase hex characters from a cryptographic source. */
export function createNonce(): string {
  if (poolOffset + NONCE_BYTES > POOL_BYTES) {
    globalThis.crypto.getRandomValues(pool);
    poolOffset = 0;
  }
  let out = '';
  for (let i = poolOffset; i < poolOffset + NONCE_BYTES; i++) {
    const byte = pool[i]!;
    out += HEX[byte >> 4]! + HEX[byte & 15]!;
  }
  // Each byte is handed out once.
  poolOffset += NONCE_BYTES;
  return out;
}

/** The name of the final-report tag for a nonce: `ai-agent-<nonce>-FINAL`. */
export function finalTagName(nonce: string): string {
  assertNonce(nonce);
  return `ai-agent-${nonce}-FINAL`;
}

/** Throws `XmlTransportError('invalid_nonce')` unless `nonce` fits in a tag name. */
export function assertNonce(nonce: unknown): asserts nonce is string {
  if (typeof nonce !== 'string' || !NONCE_SHAPE.test(nonce)) {
    throw new XmlTransportError(
      'invalid_nonce',
      `invalid nonce ${JSON.stringify(nonce)}: expected 1-64 characters from A-Z a-z 0-9 _ - (createNonce() gives 8 lowercase hex characters)`,
    );
  }
}
