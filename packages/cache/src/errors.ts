import { AgentError } from '@agent/protocol';

/** The `code` of a `CacheError`. */
export const CACHE_ERROR_CODE = 'cache_unavailable';

/**
 * A cache store could not be opened or did not answer (a file that cannot be written, a Redis
 * server that is down, a lock held too long). Its message never holds a password. Callers that
 * use a cache as an optimisation treat it as a miss and go on.
 */
export class CacheError extends AgentError {
  override readonly name = 'CacheError';

  constructor(message: string, options?: { cause?: unknown }) {
    super(CACHE_ERROR_CODE, message, options);
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
