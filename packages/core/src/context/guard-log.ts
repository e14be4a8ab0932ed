import type { SessionRecorder } from '../observe/recorder.js';
import type { ContextProjection } from './context-guard.js';

/** What made the context guard force the final turn. */
export type GuardTrigger = 'turn_projection' | 'tool_result' | 'model_refused';

const WHY: Record<GuardTrigger, string> = {
  turn_projection: 'the next request would not fit the context window',
  tool_result: 'a tool result did not fit the context window',
  model_refused: 'every model refused the request as too long',
};

/**
 * The `agent:EXIT-TOKEN-LIMIT` line of the moment the guard fires (seed 002): it says the final
 * turn is forced, not that the session ended. The session's own ending marker comes at the end:
 * `EXIT-FINAL-ANSWER` ("... after the context guard forced the final turn") when that turn
 * commits a report, `EXIT-TOKEN-LIMIT` ("... the final turn gave no report") when it does not.
 */
export function logContextGuard(
  recorder: SessionRecorder,
  trigger: GuardTrigger,
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
    details: {
      trigger,
      ...(projection === undefined
        ? {}
        : {
            projected_tokens: projection.projected,
            limit_tokens: projection.limit,
            remaining_tokens: projection.remaining,
          }),
    },
  });
}
