import type { JsonSchema } from '@agent/protocol';

export const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** How a response body becomes the tool's text: by its content type (`auto`), or as given. */
export const RESPONSE_MODES = ['auto', 'json', 'text', 'json-lines'] as const;
export type ResponseMode = (typeof RESPONSE_MODES)[number];

/** One endpoint as a tool. Templates read the call's arguments as `${parameters.name}`. */
export interface RestToolDefinition {
  /** The name the model sees (already provider-safe: letters, digits, `_`, `-`; at most 64). */
  name: string;
  description: string;
  /** Default `GET`. */
  method?: HttpMethod;
  /** URL template; the scheme and host are literal, `${parameters.x}` are URL-encoded. */
  url: string;
  /** Header templates (`${parameters.x}` filled as is; a header left empty is not sent). */
  headers?: Record<string, string>;
  /** JSON Schema of the arguments (default: an object of anything). */
  parametersSchema?: JsonSchema;
  /** The JSON body: strings that are exactly `${parameters.x}` take the argument's value as is. */
  bodyTemplate?: unknown;
  /** Query parameters filled from arguments: query name -> argument name (unset ones left out). */
  queryArguments?: Record<string, string>;
  /** Headers filled from arguments: header name -> argument name (unset ones left out). */
  headerArguments?: Record<string, string>;
  /** Cookies filled from arguments: cookie name -> argument name. */
  cookieArguments?: Record<string, string>;
  /** The argument sent as the whole JSON body. */
  bodyArgument?: string;
  /** Arguments sent as the properties of a JSON body object. */
  bodyProperties?: readonly string[];
  /** Default `auto`: JSON for `application/json` (and `+json`), JSON lines for ndjson/jsonl, else text. */
  response?: ResponseMode;
  /** A person decides each call first (default: every method but GET and HEAD). */
  approval?: boolean;
  /** Extra request timeout for this tool (the smaller of it and the session's wins). */
  timeoutMs?: number;
  /** The header of the call's idempotency key, or `false` for none; beats the API's `idempotencyHeader`. */
  idempotencyHeader?: string | false;
}

/** Credentials of one API; values are secrets: never in logs, errors or tool text. */
export type HttpAuth =
  | { type: 'bearer'; token: string }
  | { type: 'apiKey'; in: 'header' | 'query'; name: string; value: string }
  | { type: 'basic'; username: string; password: string }
  | {
      type: 'oauth2';
      /** The token endpoint (OAuth 2 client credentials grant). */
      tokenUrl: string;
      clientId: string;
      clientSecret: string;
      scopes?: readonly string[];
    };

/** Concurrency queues (`@agent/mcp`'s `ToolQueues` fits). */
export interface CallQueues {
  run<T>(name: string, fn: () => Promise<T>, signal?: AbortSignal): Promise<T>;
}

export interface HttpApiOptions {
  /** The provider's id (accounting, logs): the API's name. */
  id: string;
  tools: readonly RestToolDefinition[];
  /** Hosts (`host` or `host:port`) calls may reach; default the hosts of the tools' URLs. */
  allowedHosts?: readonly string[];
  auth?: HttpAuth;
  /** Per call, default 30 000 (the session's tool timeout wins when smaller). */
  timeoutMs?: number;
  /** Bytes of a response body read at most (default 1 MiB); the rest is cut with a notice. */
  maxResponseBytes?: number;
  /** Redirects followed at most (default 5), and only to allowed hosts. */
  maxRedirects?: number;
  /** The queue every call waits in (with `queues`). */
  queue?: string;
  queues?: CallQueues;
  /** More strings to keep out of errors (config secrets the headers carry). */
  secrets?: readonly string[];
  /**
   * The header each call's idempotency key (`ToolCallRequest.idempotencyKey`) is sent in, default
   * `Idempotency-Key`; `false`: no key is sent. It replaces what the tool's headers put there.
   */
  idempotencyHeader?: string | false;
}

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024;
export const DEFAULT_MAX_REDIRECTS = 5;
/** Characters of an error response's body shown to the model. */
export const ERROR_EXCERPT_CHARS = 2000;
