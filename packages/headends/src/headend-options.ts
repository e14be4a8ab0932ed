import { ConfigError } from '@agent/protocol';
import type { AdmissionGate } from './admission.js';
import type { AgentCatalog } from './agent-catalog.js';

/** Options every network headend takes. */
export interface HeadendOptions {
  catalog: AgentCatalog;
  /** Accepted bearer tokens. Required unless `allowNoAuth` (or operator tokens are given). */
  tokens?: readonly string[];
  /**
   * Accepted bearer tokens whose holders are operators: they see and decide every client's
   * sessions (`docs/security.md`). A token of `tokens` sees only the sessions it started.
   */
  operatorTokens?: readonly string[];
  /** Serve without auth; `serve` refuses it unless the host is loopback. */
  allowNoAuth?: boolean;
  /** Largest request body in bytes (default 1 MiB); larger ones get 413. */
  bodyLimitBytes?: number;
  /** Sessions running at once (default 16). */
  concurrency?: number;
  /** Requests waiting for a slot, FIFO (default 64); beyond it 429. */
  queueSize?: number;
  /** Seconds sent in `Retry-After` with 429 / 503 (default 1). */
  retryAfterSeconds?: number;
  /** Asked before each run is admitted (agent-server's `--queue`: the shared queue's length cap). */
  admissionGate?: AdmissionGate;
  /**
   * Hostnames accepted in `Host` and `Origin` (default `LOOPBACK_HOSTNAMES`); any other gets 403.
   * DNS rebinding protection: name here the hostnames clients reach the face by.
   */
  allowedHostnames?: readonly string[];
  /** Passed to every run as `headendId` (default the headend's kind). */
  headendId?: string;
}

export const DEFAULT_BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * Tokens to check (operator tokens included), or undefined when auth is explicitly off. Throws
 * when neither is configured.
 */
export function resolveTokens(kind: string, options: HeadendOptions): readonly string[] | undefined {
  const tokens = [...(options.tokens ?? []), ...(options.operatorTokens ?? [])].filter(
    (token) => token.length > 0,
  );
  if (tokens.length > 0) return tokens;
  if (options.allowNoAuth === true) return undefined;
  throw new ConfigError({
    field: 'tokens',
    allowed: 'at least one token, or allowNoAuth (loopback only)',
    message: `${kind} headend: give at least one token, or set allowNoAuth (loopback only)`,
  });
}
