import { HTTP_METHODS, RESPONSE_MODES } from '@agent/http-tools';
import { posInt, type Schema, str, stringList, TTL } from './schema-parts.js';

// The `restTools` and `openapiSpecs` sections of `agent.json` (docs/http-tools.md): types and
// the JSON Schema their entries are checked against.

/** Credentials of an HTTP API (values usually `${VAR}`s; secrets: never shown). */
export interface HttpAuthEntry {
  type: 'bearer' | 'apiKey' | 'basic' | 'oauth2';
  token?: string;
  value?: string;
  name?: string;
  in?: 'header' | 'query';
  username?: string;
  password?: string;
  clientId?: string;
  clientSecret?: string;
  tokenUrl?: string;
  scopes?: string[];
}

/** What every HTTP API entry may set. */
interface HttpApiCommon {
  headers?: Record<string, string>;
  auth?: HttpAuthEntry;
  /** Hosts (`host[:port]`) the calls may reach besides the URL's own. */
  allowedHosts?: string[];
  timeoutMs?: number;
  maxResponseBytes?: number;
  queue?: string;
  /** Caches results for this long (`off`, ms, `30s|5m|1h|1d|1w`). */
  cache?: string | number;
  /** `false`: no call waits for a person; `true`: every call does (default: all but GET). */
  approval?: boolean;
  /** The header each call's idempotency key goes in (default `Idempotency-Key`); `false`: none. */
  idempotencyHeader?: string | false;
}

/** One endpoint as the tool `rest__<name>`. */
export interface RestToolEntry extends HttpApiCommon {
  description: string;
  method?: (typeof HTTP_METHODS)[number];
  url: string;
  parametersSchema?: Record<string, unknown>;
  bodyTemplate?: unknown;
  response?: (typeof RESPONSE_MODES)[number];
}

/** An OpenAPI document whose operations become the tools `<name>__<operation>`. */
export interface OpenApiSpecEntry extends HttpApiCommon {
  /** A file (relative to the config file) or an http(s) URL. */
  spec: string;
  baseUrl?: string;
  tags?: string[];
  paths?: string[];
  operations?: string[];
  includeMethods?: string[];
  /** Per operation (its tool name without the `<name>__` prefix): a TTL that beats `cache`. */
  toolsCache?: Record<string, string | number>;
}

const AUTH: Schema = {
  type: 'object',
  properties: {
    type: {
      enum: ['bearer', 'apiKey', 'basic', 'oauth2'],
      'x-expects': 'one of bearer, apiKey, basic, oauth2',
    },
    token: str('a token (bearer)'),
    value: str('the key (apiKey)'),
    name: str('a header or query parameter name (apiKey)'),
    in: { enum: ['header', 'query'], 'x-expects': 'header or query' },
    username: str('a user name (basic)'),
    password: str('a password (basic)'),
    clientId: str('a client id (oauth2)'),
    clientSecret: str('a client secret (oauth2)'),
    tokenUrl: str('an http(s) URL (oauth2)'),
    scopes: stringList('a list of scopes'),
  },
  required: ['type'],
  additionalProperties: false,
  'x-expects': 'an object { type: bearer | apiKey | basic | oauth2, ... }',
};

const IDEMPOTENCY_HEADER = 'an HTTP header name, or false to send no idempotency key';

const COMMON: Record<string, Schema> = {
  headers: {
    type: 'object',
    additionalProperties: { type: 'string', 'x-expects': 'a string' },
    'x-expects': 'an object of header names to strings',
  },
  auth: AUTH,
  allowedHosts: stringList('a list of hosts (host or host:port)'),
  timeoutMs: posInt('a positive number of milliseconds or a duration such as 30s, 5m'),
  maxResponseBytes: posInt('a positive integer (bytes)'),
  queue: str('a queue name'),
  cache: TTL,
  approval: { type: 'boolean', 'x-expects': 'true or false' },
  // The name itself is checked by @agent/http-tools (an HTTP token, not a header it sets).
  idempotencyHeader: {
    oneOf: [
      { type: 'string', 'x-expects': IDEMPOTENCY_HEADER },
      { const: false, 'x-expects': IDEMPOTENCY_HEADER },
    ],
    'x-expects': IDEMPOTENCY_HEADER,
  },
};

export const REST_TOOL: Schema = {
  type: ['object', 'null'],
  properties: {
    ...COMMON,
    description: { type: 'string', minLength: 1, 'x-expects': 'a description for the model' },
    method: { enum: [...HTTP_METHODS], 'x-expects': `one of ${HTTP_METHODS.join(', ')}` },
    url: str('an http(s) URL template (arguments fill its parameters placeholders)'),
    parametersSchema: { type: 'object', 'x-expects': 'a JSON Schema object' },
    bodyTemplate: { 'x-expects': 'any JSON value' },
    response: { enum: [...RESPONSE_MODES], 'x-expects': `one of ${RESPONSE_MODES.join(', ')}` },
  },
  required: ['description', 'url'],
  additionalProperties: false,
  'x-expects': "a REST tool object (or null to remove a lower layer's entry)",
};

export const OPENAPI_SPEC: Schema = {
  type: ['object', 'null'],
  properties: {
    ...COMMON,
    spec: {
      type: 'string',
      minLength: 1,
      'x-expects': 'a file path or an http(s) URL of an OpenAPI 3.0/3.1 document',
    },
    baseUrl: str('an http(s) URL'),
    tags: stringList('a list of tags'),
    paths: stringList('a list of path globs'),
    operations: stringList('a list of operationIds (globs)'),
    includeMethods: stringList('a list of HTTP methods'),
    toolsCache: {
      type: 'object',
      additionalProperties: TTL,
      'x-expects': 'an object of operation names to TTLs',
    },
  },
  required: ['spec'],
  additionalProperties: false,
  'x-expects': "an OpenAPI spec object (or null to remove a lower layer's entry)",
};
