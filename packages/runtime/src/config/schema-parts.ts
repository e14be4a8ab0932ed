import { TTL_ALLOWED } from '@agent/cache';

// The building blocks of agent.json's JSON Schema (config/schema.ts and its sections): each
// node carries `x-expects`, what the error message says is allowed there.

export type Schema = Record<string, unknown>;

export const str = (what = 'a string'): Schema => ({ type: 'string', 'x-expects': what });
export const posInt = (what = 'a positive integer'): Schema => ({
  type: 'integer',
  minimum: 1,
  'x-expects': what,
});
export const stringMap = (what: string): Schema => ({
  type: 'object',
  additionalProperties: { type: 'string', 'x-expects': 'a string' },
  'x-expects': what,
});
export const stringList = (what: string): Schema => ({
  type: 'array',
  items: { type: 'string', 'x-expects': 'a string' },
  'x-expects': what,
});

/** A TTL as JSON can write it; the grammar is checked by `parseTtl` (config/cache-checks.ts). */
export const TTL: Schema = { type: ['integer', 'string'], 'x-expects': TTL_ALLOWED };

/** OAuth of a remote server (MCP servers, A2A agents): `McpOAuthConfig` of `@agent/mcp`. */
export const MCP_OAUTH: Schema = {
  type: 'object',
  properties: {
    grant: {
      enum: ['authorization_code', 'client_credentials'],
      'x-expects': 'authorization_code or client_credentials',
    },
    clientId: str('a client id'),
    clientSecret: str('a client secret'),
    tokenEndpointAuthMethod: {
      enum: ['client_secret_basic', 'client_secret_post', 'none'],
      'x-expects': 'one of client_secret_basic, client_secret_post, none',
    },
    scope: str('space-separated scopes'),
    clientMetadataUrl: str('an https URL'),
    issuer: str('an http(s) URL'),
    redirectPort: { type: 'integer', minimum: 1, maximum: 65535, 'x-expects': 'a port number' },
  },
  additionalProperties: false,
  'x-expects': 'an OAuth settings object',
};
