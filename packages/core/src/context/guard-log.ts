import type { ContextGuardOutcome, ContextGuardTrigger, LogDetails, ModelTarget } from '@agent/protocol';
import type { SessionRecorder } from '../observe/recorder.js';
import type { ContextProjection } from './context-guard.js';

/** What made the context guard force the final turn. */
export type GuardTrigger = ContextGuardTrigger;

const WHY: Record<GuardTrigger, string> = {
  turn_projection: 'the next request would not fit the context window',
  tool_result: 'a tool result did not fit the context window',
  model_refused: 'every model refused the request as too long',
};

/**
 * The `details` of a guard log line: what fired it, what it did, the target measured against and
 * the projection (seed 002's `projected_tokens`, `limit_tokens`, `remaining_tokens`). Read back
 * by `contextGuardEvent` (`@agent/protocol`), which the server's metrics count.
 */
export function guardDetails(
  trigger: GuardTrigger,
  outcome: ContextGuardOutcome,
  target: ModelTarget | undefined,
  projection?: ContextProjection,
): LogDetails {
  return {
    trigger,
    outcome,
    ...(target === undefined ? {} : { provider: target.client.provider, model: target.client.model }),
    ...(projection === undefined
      ? {}
      : {
          projected_tokens: projection.projected,
          limit_tokens: projection.limit,
          remaining_tokens: projection.remaining,
        }),
  };
}

/**
 * The `agent:EXIT-TOKEN-LIMIT` line of the moment the guard fires (seed 002): it says the final
 * turn is forced, not that the session ended. The session's own ending marker comes at the end:
 * `EXIT-FINAL-ANSWER` ("... after the context guard forced the final turn") when that turn
 * commits a report, `EXIT-TOKEN-LIMIT` ("... the final turn gave no report") when it does not.
 */
export function logContextGuard(
  recorder: SessionRecorder,
  trigger: GuardTrigger,
  target: ModelTarget | undefined,
  projection?: ContextProjection,
): void {
  const numbers =
    projection === undefined
      ? ''
      : ` (about ${projection.projected} tokens projected, limit ${projection.limit})`;
  recorder.log({
    severity: 'WRN',
    direction: 'response',
    type: 'llm',
    remoteIdentifier: 'agent:EXIT-TOKEN-LIMIT',
    message: `context guard fired: ${WHY[trigger]}${numbers}; forcing the final turn, the session goes on (it ends with EXIT-TOKEN-LIMIT only if that turn gives no report)`,
    details: guardDetails(trigger, 'final_turn_forced', target, projection),
  });
}
