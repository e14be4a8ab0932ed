import { ClientCredentialsTokens } from './oauth-token.js';
import type { HttpAuth } from './types.js';

/** Puts one API's credentials on its requests. */
export interface AuthApplier {
  apply(url: URL, headers: Headers, signal: AbortSignal): Promise<void>;
  /** The API answered 401: a cached token is dropped (the next call fetches another). */
  refused(): void;
  /** The secret values, for redaction. */
  secrets: string[];
  /** Hosts the credentials themselves need (the token endpoint). */
  hosts: string[];
}

export function authApplier(auth: HttpAuth | undefined): AuthApplier {
  if (auth === undefined) return { apply: async () => {}, refused: () => {}, secrets: [], hosts: [] };
  switch (auth.type) {
    case 'bearer':
      return {
        apply: async (_url, headers) => headers.set('authorization', `Bearer ${auth.token}`),
        refused: () => {},
        secrets: [auth.token],
        hosts: [],
      };
    case 'basic': {
      const encoded = Buffer.from(`${auth.username}:${auth.password}`).toString('base64');
      return {
        apply: async (_url, headers) => headers.set('authorization', `Basic ${encoded}`),
        refused: () => {},
        secrets: [auth.password, encoded],
        hosts: [],
      };
    }
    case 'apiKey':
      return {
        apply: async (url, headers) => {
          if (auth.in === 'query') url.searchParams.set(auth.name, auth.value);
          else headers.set(auth.name, auth.value);
        },
        refused: () => {},
        secrets: [auth.value],
        hosts: [],
      };
    case 'oauth2': {
      const tokens = new ClientCredentialsTokens(auth);
      let last: string | undefined;
      return {
        apply: async (_url, headers, signal) => {
          last = await tokens.token(signal);
          headers.set('authorization', `Bearer ${last}`);
        },
        refused: () => tokens.invalidate(),
        get secrets() {
          return [auth.clientSecret, ...(last === undefined ? [] : [last])];
        },
        hosts: [new URL(auth.tokenUrl).host.toLowerCase()],
      };
    }
  }
}
