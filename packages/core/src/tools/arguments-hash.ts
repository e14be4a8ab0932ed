import { createHash } from 'node:crypto';
import canonicalizeModule from 'canonicalize';

// The package is CommonJS (`module.exports = serialize`) with an ES-style `export default` in its
// types: Node hands the function over as the default import; its types see the module.
const canonicalize = canonicalizeModule as unknown as (input: unknown) => string | undefined;

/**
 * What binds an approval to a call: `sha256:` and the hex SHA-256 of the arguments' canonical
 * JSON (RFC 8785: sorted keys, one number form), so a client can compute it from the arguments
 * it was shown.
 */
export function argumentsHash(args: Record<string, unknown>): string {
  const canonical = canonicalize(args) ?? 'null';
  return `sha256:${createHash('sha256').update(canonical).digest('hex')}`;
}
