import type { ModelError } from '@agent/protocol';

/** What the loop does after a failed model call. */
export type ErrorAction =
  /** The target can never work in this session. */
  | { kind: 'drop-target'; reason: 'auth' | 'quota' | 'model_not_found' }
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
    case 'rate_limit':
      return { kind: 'rate-limited' };
    default:
      // timeout, network, server, invalid_response, bad_request, content_filter, and an
      // `aborted` that did not come from our own signal: all count as a failed attempt.
      return { kind: 'retry' };
  }
}
