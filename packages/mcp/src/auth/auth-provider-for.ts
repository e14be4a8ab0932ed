import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { ClientCredentialsProvider } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import type { McpServerConfig } from '../client/config.js';
import { type McpAuthOptions, McpOAuthProvider } from './oauth-provider.js';
import { MemoryTokenStore } from './token-store.js';

/**
 * The OAuth provider of one server, or undefined when it gets none: not HTTP, or it sends its
 * own `Authorization` header, or neither its config (`oauth`) nor the client (`auth`) asks for it.
 */
export function authProviderFor(
  server: string,
  config: McpServerConfig,
  auth: McpAuthOptions | undefined,
): OAuthClientProvider | undefined {
  if (config.type !== 'http' && config.type !== 'sse') return undefined;
  const { oauth } = config;
  if (oauth?.grant === 'client_credentials' && oauth.clientId && oauth.clientSecret && oauth.issuer) {
    return new ClientCredentialsProvider({
      clientId: oauth.clientId,
      clientSecret: oauth.clientSecret,
      expectedIssuer: oauth.issuer,
      ...(oauth.scope ? { scope: oauth.scope } : {}),
    });
  }
  const ownHeader = Object.keys(config.headers ?? {}).some((name) => name.toLowerCase() === 'authorization');
  if (ownHeader || (oauth === undefined && auth === undefined)) return undefined;
  return new McpOAuthProvider(server, config.url, oauth ?? {}, auth ?? { store: new MemoryTokenStore() });
}
