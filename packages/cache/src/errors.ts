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
