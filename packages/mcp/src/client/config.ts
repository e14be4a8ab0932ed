import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';

/** Settings every MCP server entry shares, whatever its transport. */
export interface McpServerCommonConfig {
  /** Milliseconds a tool call may take before it fails with `timeout` (default 60 000). */
  toolTimeoutMs?: number;
  /** Milliseconds the `initialize` handshake may take (default 30 000). */
  connectTimeoutMs?: number;
  /** Name of the concurrency queue its calls wait in (see `ToolQueues`); default `default`. */
  queue?: string;
  /** Glob patterns (picomatch) of the server's tool names to expose; default: all. */
  allowTools?: string[];
  /** Glob patterns of tool names to hide; a deny match wins over an allow match. */
  denyTools?: string[];
  /**
   * Checks the server between calls with MCP `ping` or `tools/list`. A probe that fails or
   * times out, or a server found gone, restarts it (backing off like any reconnect). Default:
   * no probe; a failed server is reconnected when it is next called.
   */
  healthProbe?: McpHealthProbe;
  /** Milliseconds between probes (default 30 000). */
  healthProbeIntervalMs?: number;
  /** Milliseconds one probe may take (default 3 000). */
  healthProbeTimeoutMs?: number;
}

export const HEALTH_PROBES = ['ping', 'listTools'] as const;
export type McpHealthProbe = (typeof HEALTH_PROBES)[number];

/** A server started as a child process, speaking MCP over its stdin/stdout. */
export interface McpStdioServerConfig extends McpServerCommonConfig {
  type: 'stdio';
  command: string;
  args?: string[];
  /** Added to a minimal inherited environment (HOME, LOGNAME, PATH, SHELL, TERM, USER). */
  env?: Record<string, string>;
  cwd?: string;
  /** Largest single JSON-RPC message accepted from the server, in bytes (default 256 MiB). */
  maxMessageBytes?: number;
}

/** The token endpoint auth methods a client may use. */
export const TOKEN_ENDPOINT_AUTH_METHODS = ['client_secret_basic', 'client_secret_post', 'none'] as const;

/**
 * OAuth settings of a remote server. Without them a server that asks for authorization still
 * gets it when the provider has `auth` (discovery, then a client ID metadata document or
 * dynamic client registration).
 */
export interface McpOAuthConfig {
  /** `authorization_code` (default: a user approves, `agent mcp login`) or `client_credentials` (no user; needs `clientId` and `clientSecret`). */
  grant?: 'authorization_code' | 'client_credentials';
  /** A pre-registered client. */
  clientId?: string;
  clientSecret?: string;
  /** How the client authenticates at the token endpoint (default: the registration's, else basic with a secret, none without). */
  tokenEndpointAuthMethod?: (typeof TOKEN_ENDPOINT_AUTH_METHODS)[number];
  /** Scopes to ask for (default: the server's `WWW-Authenticate` scope, else its `scopes_supported`). */
  scope?: string;
  /** HTTPS URL of this client's metadata document, used as its client id where supported. */
  clientMetadataUrl?: string;
  /** Issuer URL of the authorization server the client credentials belong to (required for `client_credentials`: they go to no other). */
  issuer?: string;
  /** Loopback port `agent mcp login` listens on for the redirect (default: any free port). */
  redirectPort?: number;
}

/** A server reached over Streamable HTTP. */
export interface McpHttpServerConfig extends McpServerCommonConfig {
  type: 'http';
  url: string;
  headers?: Record<string, string>;
  oauth?: McpOAuthConfig;
}

/** A server reached over the older HTTP+SSE transport. */
export interface McpSseServerConfig extends McpServerCommonConfig {
  type: 'sse';
  url: string;
  headers?: Record<string, string>;
  oauth?: McpOAuthConfig;
}

/**
 * A server reached over a WebSocket (`ws:` or `wss:`, subprotocol `mcp`) through the SDK's
 * WebSocket client transport. That transport sends no custom headers, so none can be set here.
 */
export interface McpWebSocketServerConfig extends McpServerCommonConfig {
  type: 'websocket';
  url: string;
}

/** A server reached through any SDK transport the caller builds (in-process servers, tests). */
export interface McpCustomServerConfig extends McpServerCommonConfig {
  type: 'custom';
  /** Called for every (re)connection; must return a fresh, not yet started transport. */
  createTransport: () => Transport | Promise<Transport>;
}

export type McpServerConfig =
  | McpStdioServerConfig
  | McpHttpServerConfig
  | McpSseServerConfig
  | McpWebSocketServerConfig
  | McpCustomServerConfig;

export type McpTransportType = McpServerConfig['type'];

export const DEFAULT_TOOL_TIMEOUT_MS = 60_000;

/**
 * The `_meta` key of every `tools/call` that carries the model's tool call id. A call that ran in
 * a turn lost to a crash runs again with the same id when the resumed turn makes it again, so a
 * server can de-duplicate (tool calls are at-least-once, `docs/sessions.md`).
 */
export const TOOL_CALL_ID_META = 'agent/callId';
/**
 * The `_meta` key of a `tools/call` that carries the session's idempotency key for the call (64
 * hex digits, the same for the same session, turn and call, across a crash and resume). Sent only
 * when the call has one: an idempotent server applies a call made again with a key it has seen
 * once (`docs/sessions.md`, "Idempotency keys").
 */
export const IDEMPOTENCY_KEY_META = 'agent/idempotencyKey';
export const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;
export const DEFAULT_QUEUE = 'default';
export const DEFAULT_MAX_MESSAGE_BYTES = 256 * 1024 * 1024;
export const DEFAULT_HEALTH_PROBE_INTERVAL_MS = 30_000;
export const DEFAULT_HEALTH_PROBE_TIMEOUT_MS = 3_000;

/** What the client layer reports about itself; the runtime maps it onto its own log lines. */
export interface McpLogEntry {
  level: 'debug' | 'info' | 'warn' | 'error';
  /** The server's configured name. */
  server: string;
  message: string;
  details?: Record<string, string | number | boolean>;
}

export type McpLogSink = (entry: McpLogEntry) => void;
