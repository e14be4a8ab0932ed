import { AgentError } from '@agent/protocol';

/** The `code` of a `CacheError`. */
export const CACHE_ERROR_CODE = 'cache_unavailable';
/** The `code` of a `CacheError` about a value: one a cache key or entry cannot hold (a cycle, NaN, a function). */
export const CACHE_VALUE_ERROR_CODE = 'cache_value_unsupported';

/**
 * A cache store could not be opened or did not answer (a file that cannot be written, a Redis
 * server that is down, a lock held too long), or (code `cache_value_unsupported`) was given a
 * value it cannot key or store. Its message never holds a password. Callers that use a cache as
 * an optimisation treat it as a miss and go on.
 */
export class CacheError extends AgentError {
  override readonly name = 'CacheError';

  constructor(
    message: string,
    options?: { cause?: unknown; code?: typeof CACHE_ERROR_CODE | typeof CACHE_VALUE_ERROR_CODE },
  ) {
    super(options?.code ?? CACHE_ERROR_CODE, message, options);
  }
}

/** The `code` of a `SessionStoreError`. */
export const SESSION_STORE_ERROR_CODE = 'session_store_unavailable';

/**
 * A session store could not be opened or did not answer, or holds a snapshot it cannot read.
 * Its message names the store (a Redis password redacted) and what was being done. A failed
 * write leaves the session's earlier snapshot as it was.
 */
export class SessionStoreError extends AgentError {
  override readonly name = 'SessionStoreError';

  constructor(message: string, options?: { cause?: unknown }) {
    super(SESSION_STORE_ERROR_CODE, message, options);
  }
}

/** The `code` of a `SnapshotIntegrityError`. */
export const SNAPSHOT_TAMPERED_CODE = 'session_snapshot_tampered';

/**
 * A stored snapshot failed its integrity check: its HMAC tag matches none of the configured
 * snapshot keys, or it has none and is not of the format written before tags. It was changed
 * outside this program (or sealed with a key no longer configured) and is never resumed.
 */
export class SnapshotIntegrityError extends AgentError {
  override readonly name = 'SnapshotIntegrityError';

  constructor(message: string) {
    super(SNAPSHOT_TAMPERED_CODE, message);
  }
}
