import type { Server, ServerOptions } from 'node:http';
import { ConfigError } from '@agent/protocol';

/** A client must send its request headers within this (default 20 s); else 408 and closed. */
export const DEFAULT_HEADERS_TIMEOUT_MS = 20_000;
/** A client must send its whole request, body included, within this (default 60 s). */
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;
/** An idle keep-alive connection is closed after this (default 5 s). */
export const DEFAULT_KEEP_ALIVE_TIMEOUT_MS = 5_000;
/** Open connections per headend (default 1024); more are closed as soon as they are accepted. */
export const DEFAULT_MAX_CONNECTIONS = 1024;

/**
 * Bounds on the clients of one listening headend. The timeouts cover receiving the request
 * only: a response (an SSE stream of a long run) is never cut by them.
 */
export interface ConnectionLimits {
  headersTimeoutMs?: number;
  requestTimeoutMs?: number;
  keepAliveTimeoutMs?: number;
  maxConnections?: number;
}

function positive(name: keyof ConnectionLimits, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!(Number.isFinite(value) && value > 0)) {
    throw new ConfigError({
      field: name,
      value,
      allowed: 'a positive number',
      message: `${name} must be a positive number, not ${value}`,
    });
  }
  return value;
}

/** The limits with defaults filled in; throws a message naming the bad option. */
export function resolveConnectionLimits(options: ConnectionLimits): Required<ConnectionLimits> {
  const requestTimeoutMs = positive('requestTimeoutMs', options.requestTimeoutMs, DEFAULT_REQUEST_TIMEOUT_MS);
  const headersTimeoutMs = positive(
    'headersTimeoutMs',
    options.headersTimeoutMs,
    Math.min(DEFAULT_HEADERS_TIMEOUT_MS, requestTimeoutMs),
  );
  if (headersTimeoutMs > requestTimeoutMs) {
    throw new ConfigError({
      field: 'headersTimeoutMs',
      value: headersTimeoutMs,
      allowed: `at most requestTimeoutMs (${requestTimeoutMs})`,
      message: `headersTimeoutMs (${headersTimeoutMs}) must not be longer than requestTimeoutMs (${requestTimeoutMs})`,
    });
  }
  return {
    headersTimeoutMs,
    requestTimeoutMs,
    keepAliveTimeoutMs: positive(
      'keepAliveTimeoutMs',
      options.keepAliveTimeoutMs,
      DEFAULT_KEEP_ALIVE_TIMEOUT_MS,
    ),
    maxConnections: Math.floor(positive('maxConnections', options.maxConnections, DEFAULT_MAX_CONNECTIONS)),
  };
}

/** `http.createServer` options enforcing the timeouts. */
export function httpServerOptions(limits: Required<ConnectionLimits>): ServerOptions {
  return {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    // Node checks the two timeouts on this interval (its default, 30 s, would let a 1 s
    // timeout run to 30 s): check four times per timeout, at most once a second.
    connectionsCheckingInterval: Math.min(
      1000,
      Math.max(50, Math.floor(Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs) / 4)),
    ),
  };
}

/** Settings that live on the server object rather than in its options. */
export function applyConnectionLimits(server: Server, limits: Required<ConnectionLimits>): void {
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  server.maxConnections = limits.maxConnections;
}
