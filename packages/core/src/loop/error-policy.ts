import type { ModelError } from '@agent/protocol';

/** What the loop does after a failed model call. */
export type ErrorAction =
  /**
   * The target cannot work: for the session (auth, quota, model_not_found), or for this turn
   * (`bad_request`: the API refuses this request and would refuse it again the same way).
   */
  | { kind: 'drop-target'; reason: 'auth' | 'quota' | 'model_not_found' | 'bad_request' }
  /** Prompt too long for this target: try another, or force the final turn. */
  | { kind: 'context' }
  /** Back off: move on, and sleep once every live target is rate-limited. */
  | { kind: 'rate-limited' }
  /** Count the attempt and try the next target. */
  | { kind: 'retry' }
  /** The session was cancelled. */
  | { kind: 'aborted' };

export function classifyModelError(error: ModelError, sessionAborted: boolean): ErrorAction {
  if (sessionAborted) return { kind: 'aborted' };
  switch (error.kind) {
    case 'auth':
    case 'quota':
    case 'model_not_found':
      return { kind: 'drop-target', reason: error.kind };
    case 'context_length':
      return { kind: 'context' };
    case 'bad_request':
      // The provider says whether the same request could pass on a second try; a 400
      // invalid_request cannot, so the next target gets the turn instead.
      return error.retryable ? { kind: 'retry' } : { kind: 'drop-target', reason: 'bad_request' };
    case 'rate_limit':
      return { kind: 'rate-limited' };
    default:
      // timeout, network, server, invalid_response, content_filter, and an
      // `aborted` that did not come from our own signal: all count as a failed attempt.
      return { kind: 'retry' };
  }
}
