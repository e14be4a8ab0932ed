import type { McpHeadendOptions } from '@agent/headends';
import {
  type ConnectionLimits,
  DEFAULT_HEADERS_TIMEOUT_MS,
  DEFAULT_KEEP_ALIVE_TIMEOUT_MS,
  DEFAULT_MAX_CONNECTIONS,
  DEFAULT_MCP_APPROVAL_TIMEOUT_MS,
  DEFAULT_MCP_MAX_SESSIONS,
  DEFAULT_MCP_MAX_SESSIONS_PER_TOKEN,
  DEFAULT_MCP_SESSION_IDLE_MS,
  DEFAULT_REQUEST_TIMEOUT_MS,
} from '@agent/headends/http';
import { isPositiveInteger } from '@agent/protocol/util';

/** Bounds on clients: timeouts and a connection cap per HTTP headend, and the MCP session caps. */
export interface ServerLimits {
  headersTimeoutSeconds?: number;
  requestTimeoutSeconds?: number;
  keepAliveTimeoutSeconds?: number;
  maxConnections?: number;
  retryAfterSeconds?: number;
  mcpMaxSessions?: number;
  mcpMaxSessionsPerToken?: number;
  mcpIdleTimeoutSeconds?: number;
  mcpStreamCloseSeconds?: number;
  mcpApprovalTimeoutSeconds?: number;
}

export interface LimitOption {
  /** The `server.json` key. */
  key: keyof ServerLimits;
  /** The flag, with its value name. */
  flag: string;
  /** The camelCase name commander gives the flag. */
  attribute: string;
  /** Seconds (any positive number) or a count (a positive integer). */
  unit: 'seconds' | 'count';
  description: string;
}

const seconds = (ms: number) => ms / 1000;

/** Every limit, once: the flags, the config keys and their help come from this table. */
export const LIMIT_OPTIONS: readonly LimitOption[] = [
  {
    key: 'headersTimeoutSeconds',
    flag: '--headers-timeout <seconds>',
    attribute: 'headersTimeout',
    unit: 'seconds',
    description: `a client must send its request headers within this, else 408 (default ${seconds(DEFAULT_HEADERS_TIMEOUT_MS)})`,
  },
  {
    key: 'requestTimeoutSeconds',
    flag: '--request-timeout <seconds>',
    attribute: 'requestTimeout',
    unit: 'seconds',
    description: `a client must send its whole request, body included, within this, else 408; responses and streams are not limited (default ${seconds(DEFAULT_REQUEST_TIMEOUT_MS)})`,
  },
  {
    key: 'keepAliveTimeoutSeconds',
    flag: '--keep-alive-timeout <seconds>',
    attribute: 'keepAliveTimeout',
    unit: 'seconds',
    description: `an idle keep-alive connection is closed after this (default ${seconds(DEFAULT_KEEP_ALIVE_TIMEOUT_MS)})`,
  },
  {
    key: 'maxConnections',
    flag: '--max-connections <n>',
    attribute: 'maxConnections',
    unit: 'count',
    description: `open connections per HTTP headend; more are closed at once (default ${DEFAULT_MAX_CONNECTIONS})`,
  },
  {
    key: 'retryAfterSeconds',
    flag: '--retry-after <seconds>',
    attribute: 'retryAfter',
    unit: 'count',
    description: `the Retry-After seconds sent with a 429 (queue full) or a 503 (draining) (default 1)`,
  },
  {
    key: 'mcpMaxSessions',
    flag: '--mcp-max-sessions <n>',
    attribute: 'mcpMaxSessions',
    unit: 'count',
    description: `open MCP sessions; one more initialize gets 429 (default ${DEFAULT_MCP_MAX_SESSIONS})`,
  },
  {
    key: 'mcpMaxSessionsPerToken',
    flag: '--mcp-max-sessions-per-token <n>',
    attribute: 'mcpMaxSessionsPerToken',
    unit: 'count',
    description: `open MCP sessions per token (default ${DEFAULT_MCP_MAX_SESSIONS_PER_TOKEN})`,
  },
  {
    key: 'mcpIdleTimeoutSeconds',
    flag: '--mcp-idle-timeout <seconds>',
    attribute: 'mcpIdleTimeout',
    unit: 'seconds',
    description: `an MCP session with no request and no running call is closed after this (default ${seconds(DEFAULT_MCP_SESSION_IDLE_MS)})`,
  },
  {
    key: 'mcpStreamCloseSeconds',
    flag: '--mcp-stream-close <seconds>',
    attribute: 'mcpStreamClose',
    unit: 'seconds',
    description:
      "an MCP tool call's SSE stream is closed this long after it opened; 2025-11-25 clients reconnect with Last-Event-ID for the rest (for proxies that cut long responses; default: open until the call ends)",
  },
  {
    key: 'mcpApprovalTimeoutSeconds',
    flag: '--mcp-approval-timeout <seconds>',
    attribute: 'mcpApprovalTimeout',
    unit: 'seconds',
    description: `how long an MCP call waits for the client's answer to an approval request (default ${seconds(DEFAULT_MCP_APPROVAL_TIMEOUT_MS)})`,
  },
];

/** What a limit of `unit` must be, when `value` is not that; undefined when it is. */
export function limitProblem(value: unknown, unit: LimitOption['unit']): string | undefined {
  const valid =
    typeof value === 'number' &&
    Number.isFinite(value) &&
    (unit === 'count' ? isPositiveInteger(value) : value > 0);
  if (valid) return undefined;
  return unit === 'count' ? 'a whole number of at least 1' : 'a number of seconds above 0';
}

/** A problem between limits (they are each valid), or undefined. */
export function limitsConflict(limits: ServerLimits): string | undefined {
  const headers = limits.headersTimeoutSeconds;
  const request = limits.requestTimeoutSeconds ?? seconds(DEFAULT_REQUEST_TIMEOUT_MS);
  if (headers !== undefined && headers > request) {
    return `--headers-timeout (${headers}s) must not be longer than --request-timeout (${request}s)`;
  }
  return undefined;
}

const ms = (value: number | undefined) => (value === undefined ? undefined : value * 1000);

/** What `serve` takes for every HTTP headend. */
export function connectionLimits(limits: ServerLimits): ConnectionLimits {
  return {
    headersTimeoutMs: ms(limits.headersTimeoutSeconds),
    requestTimeoutMs: ms(limits.requestTimeoutSeconds),
    keepAliveTimeoutMs: ms(limits.keepAliveTimeoutSeconds),
    maxConnections: limits.maxConnections,
  };
}

/** What the MCP headend takes for its sessions. */
export function mcpSessionLimits(
  limits: ServerLimits,
): Pick<
  McpHeadendOptions,
  'maxSessions' | 'maxSessionsPerToken' | 'sessionIdleMs' | 'streamCloseAfterMs' | 'approvalTimeoutMs'
> {
  return {
    maxSessions: limits.mcpMaxSessions,
    maxSessionsPerToken: limits.mcpMaxSessionsPerToken,
    sessionIdleMs: ms(limits.mcpIdleTimeoutSeconds),
    streamCloseAfterMs: ms(limits.mcpStreamCloseSeconds),
    approvalTimeoutMs: ms(limits.mcpApprovalTimeoutSeconds),
  };
}
