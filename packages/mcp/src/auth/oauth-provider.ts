import { randomBytes } from 'node:crypto';
import type { OAuthClientProvider, OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { McpOAuthConfig } from '../client/config.js';
import { McpUnavailableError } from '../client/tool-errors.js';
import { McpAuthorizationRequiredError } from './auth-errors.js';
import type { McpTokenStore, StoredAuthorization } from './token-store.js';

/** How a client gets OAuth authorization for its HTTP servers. */
export interface McpAuthOptions {
  /** Where clients and tokens are kept between runs. */
  store: McpTokenStore;
  /**
   * Gets the user's approval: given the authorization URL, resolves with the `code` of the
   * redirect. Without it (a plain run), a server that needs a new approval fails with
   * `McpAuthorizationRequiredError` ("run `agent mcp login <server>`").
   */
  authorize?: (authorizationUrl: URL) => Promise<string>;
  /** The redirect URI the authorization server sends the user back to (the login's loopback). */
  redirectUrl?: string;
}

/** Used in client metadata when no login is running (refresh and client credentials need none). */
const DEFAULT_REDIRECT_URL = 'http://127.0.0.1/callback';

/**
 * The SDK's `OAuthClientProvider` for one MCP server: the SDK runs the flow (discovery, client
 * ID metadata document or dynamic registration, PKCE, `resource`, scope selection, refresh,
 * step-up); this class keeps the client and tokens in the store and hands the authorization URL
 * to `authorize`. Tokens never appear in logs or errors.
 */
export class McpOAuthProvider implements OAuthClientProvider {
  private verifier?: string;
  private pendingCode?: string;
  private discovery?: OAuthDiscoveryState;
  private stored?: StoredAuthorization;

  constructor(
    readonly server: string,
    private readonly url: string,
    private readonly config: McpOAuthConfig,
    private readonly options: McpAuthOptions,
  ) {}

  get redirectUrl(): string {
    return this.options.redirectUrl ?? DEFAULT_REDIRECT_URL;
  }

  get clientMetadataUrl(): string | undefined {
    return this.config.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    const method =
      this.config.tokenEndpointAuthMethod ?? (this.config.clientSecret ? 'client_secret_basic' : 'none');
    return {
      client_name: 'agent',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: method,
      ...(this.config.scope ? { scope: this.config.scope } : {}),
    };
  }

  state(): string {
    return randomBytes(16).toString('base64url');
  }

  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    const { clientId, clientSecret, tokenEndpointAuthMethod } = this.config;
    if (clientId !== undefined) {
      return {
        client_id: clientId,
        ...(clientSecret !== undefined ? { client_secret: clientSecret } : {}),
        ...(tokenEndpointAuthMethod !== undefined
          ? { token_endpoint_auth_method: tokenEndpointAuthMethod }
          : {}),
      };
    }
    const stored = await this.load();
    // A client registered for another redirect URI cannot come back to this login's loopback.
    if (this.options.redirectUrl !== undefined && stored.redirectUrl !== this.options.redirectUrl)
      return undefined;
    return stored.client;
  }

  async saveClientInformation(client: OAuthClientInformationMixed): Promise<void> {
    await this.update((stored) => ({ ...stored, client, redirectUrl: this.redirectUrl }));
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    return (await this.load()).tokens;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    const expiresAt = tokens.expires_in === undefined ? undefined : Date.now() + tokens.expires_in * 1000;
    await this.update((stored) => ({ ...stored, tokens, ...(expiresAt === undefined ? {} : { expiresAt }) }));
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    const authorize = this.options.authorize;
    if (authorize === undefined) {
      const stored = await this.load();
      throw new McpAuthorizationRequiredError(
        this.server,
        stored.tokens === undefined ? 'it has no token' : 'its token expired and could not be refreshed',
      );
    }
    this.pendingCode = await authorize(authorizationUrl);
  }

  /** The code of an approval that just happened (once), for the transport's `finishAuth`. */
  takeAuthorizationCode(): string | undefined {
    const code = this.pendingCode;
    this.pendingCode = undefined;
    return code;
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.verifier = codeVerifier;
  }

  codeVerifier(): string {
    if (this.verifier === undefined)
      throw new McpUnavailableError('no PKCE code verifier was saved for this authorization');
    return this.verifier;
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.discovery = state;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.discovery;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'all' || scope === 'verifier') this.verifier = undefined;
    if (scope === 'all' || scope === 'discovery') this.discovery = undefined;
    if (scope === 'all' || scope === 'client') await this.update(({ client: _client, ...rest }) => rest);
    if (scope === 'all' || scope === 'tokens') {
      await this.update(({ tokens: _tokens, expiresAt: _expiresAt, ...rest }) => rest);
    }
  }

  private async load(): Promise<StoredAuthorization> {
    if (this.stored === undefined) {
      const found = await this.options.store.load(this.server);
      // Tokens issued for another URL are not this server's.
      this.stored = found !== undefined && found.url === this.url ? found : { url: this.url };
    }
    return this.stored;
  }

  private async update(change: (stored: StoredAuthorization) => StoredAuthorization): Promise<void> {
    this.stored = { ...change(await this.load()), url: this.url };
    await this.options.store.save(this.server, this.stored);
  }
}
