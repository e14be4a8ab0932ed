import { withOAuth } from '@modelcontextprotocol/sdk/client/middleware.js';
import type { McpOAuthConfig } from '../client/config.js';
import { authProviderFor } from './auth-provider-for.js';

/**
 * A fetch that authenticates as an MCP server's client would, for other HTTP services (remote
 * A2A agents): OAuth `client_credentials` (`clientId`, `clientSecret`, `issuer`, `scope`). A 401
 * names the protected resource's metadata; the SDK discovers the authorization server there,
 * gets a token and retries once, then sends the token until it expires. Returns undefined when
 * `oauth` is not a complete client-credentials setting (the caller says what is missing).
 */
export function clientCredentialsFetch(
  name: string,
  url: string,
  oauth: McpOAuthConfig,
  base: typeof fetch = fetch,
): typeof fetch | undefined {
  const { grant, clientId, clientSecret, issuer } = oauth;
  if (grant !== 'client_credentials' || !clientId || !clientSecret || !issuer) return undefined;
  const provider = authProviderFor(name, { type: 'http', url, oauth }, undefined);
  if (provider === undefined) return undefined;
  // The request's own URL is the resource: the metadata's `resource` must be a prefix of it.
  // (The A2A and MCP clients call with a URL; a Request's body could not be sent twice on a retry.)
  return (input, init) => {
    if (input instanceof Request) throw new TypeError('clientCredentialsFetch takes a URL, not a Request');
    return withOAuth(provider, String(input))(base)(input, init);
  };
}
