import type * as OAuth from 'oauth4webapi';
import { HttpToolsError } from './errors.js';

type OAuthConfig = { tokenUrl: string; clientId: string; clientSecret: string; scopes?: readonly string[] };

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);
/** Bytes of a token endpoint's answer read at most (a token response is a small JSON object). */
const MAX_TOKEN_RESPONSE_BYTES = 64 * 1024;

/** fetch for the token request: no redirects followed, the answer read up to a small cap. */
async function boundedTokenFetch(url: string, init: RequestInit): Promise<Response> {
  const response = await fetch(url, { ...init, redirect: 'manual' });
  const reader = response.body?.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (reader !== undefined) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_TOKEN_RESPONSE_BYTES) {
      await reader.cancel();
      throw new HttpToolsError(`the token endpoint answered more than ${MAX_TOKEN_RESPONSE_BYTES} bytes`);
    }
    chunks.push(value);
  }
  return new Response(Buffer.concat(chunks), {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

/**
 * Access tokens of the OAuth 2 client credentials grant (oauth4webapi), fetched on first use and
 * again shortly before they expire (or after the API answered 401). Plain HTTP is allowed only
 * for a loopback token endpoint.
 */
export class ClientCredentialsTokens {
  #token: { value: string; expiresAt: number } | undefined;
  #pending: Promise<string> | undefined;
  readonly #server: OAuth.AuthorizationServer;

  constructor(private readonly config: OAuthConfig) {
    const url = new URL(config.tokenUrl);
    this.#server = { issuer: url.origin, token_endpoint: url.href };
  }

  /** A token valid for at least 30 more seconds. */
  async token(signal: AbortSignal): Promise<string> {
    const current = this.#token;
    if (current !== undefined && current.expiresAt - 30_000 > Date.now()) return current.value;
    this.#pending ??= this.#fetch(signal).finally(() => {
      this.#pending = undefined;
    });
    return this.#pending;
  }

  /** Forgets the token (the API refused it). */
  invalidate(): void {
    this.#token = undefined;
  }

  async #fetch(signal: AbortSignal): Promise<string> {
    const url = new URL(this.config.tokenUrl);
    const insecure = url.protocol === 'http:' && LOOPBACK.has(url.hostname);
    const parameters: Record<string, string> =
      this.config.scopes === undefined || this.config.scopes.length === 0
        ? {}
        : { scope: this.config.scopes.join(' ') };
    try {
      // Loaded by the first token request: a run without OAuth APIs never loads it.
      const oauth = await import('oauth4webapi');
      const response = await oauth.clientCredentialsGrantRequest(
        this.#server,
        { client_id: this.config.clientId },
        oauth.ClientSecretBasic(this.config.clientSecret),
        parameters,
        {
          signal,
          [oauth.customFetch]: boundedTokenFetch,
          ...(insecure ? { [oauth.allowInsecureRequests]: true } : {}),
        },
      );
      const result = await oauth.processClientCredentialsResponse(
        this.#server,
        { client_id: this.config.clientId },
        response,
      );
      const lifetime = typeof result.expires_in === 'number' ? result.expires_in * 1000 : 3_600_000;
      this.#token = { value: result.access_token, expiresAt: Date.now() + lifetime };
      return result.access_token;
    } catch (error) {
      // The library's messages name the endpoint and the OAuth error, never the secret.
      const reason = error instanceof Error ? error.message : String(error);
      throw new HttpToolsError(`the OAuth token request to ${url.origin}${url.pathname} failed: ${reason}`);
    }
  }
}
