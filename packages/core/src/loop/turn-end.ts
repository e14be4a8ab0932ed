import type { ExitCode, ForcedFinalReason } from '@agent/protocol';
import type { SessionState } from './session-state.js';
import type { TargetRotation } from './target-rotation.js';

/** How one turn ended. */
export type TurnEnd =
  | { kind: 'report' }
  | { kind: 'tools'; forceFinal?: ForcedFinalReason }
  | { kind: 'force-final'; reason: ForcedFinalReason }
  | { kind: 'end'; exitCode: ExitCode; error: string };

/** The turn cannot go on because no target is left. */
export function noTargetLeft(rotation: TargetRotation, isFinal: boolean): TurnEnd {
  const exitCode = rotation.exhaustedExitCode();
  if (exitCode === 'EXIT-TOKEN-LIMIT' && !isFinal) return { kind: 'force-final', reason: 'context' };
  const what: Partial<Record<ExitCode, string>> = {
    'EXIT-AUTH-FAILURE': 'every model rejected the credentials',
    'EXIT-QUOTA-EXCEEDED': 'every model is out of quota',
    'EXIT-TOKEN-LIMIT': 'the conversation no longer fits any model',
  };
  return { kind: 'end', exitCode, error: what[exitCode] ?? 'no model could be used' };
}

/** How the session ends when its final turn gave no report. */
export function finalTurnFailed(state: SessionState, maxRetries: number, modelErrorsOnly: boolean): TurnEnd {
  const reason = state.forcedFinal ?? 'max_turns';
  if (reason === 'context') {
    return {
      kind: 'end',
      exitCode: 'EXIT-TOKEN-LIMIT',
      error: 'the context window filled up and the final turn gave no report',
    };
  }
  if (reason === 'user_stop') {
    return {
      kind: 'end',
      exitCode: 'EXIT-USER-STOP',
      error: 'stopped by the user; the final turn gave no report',
    };
  }
  if (modelErrorsOnly) {
    return {
      kind: 'end',
      exitCode: 'EXIT-NO-LLM-RESPONSE',
      error: `no model answered on the final turn after ${maxRetries} attempts`,
    };
  }
  if (state.finalReportFailedEver) {
    return {
      kind: 'end',
      exitCode: 'EXIT-INVALID-FINAL-REPORT',
      error: 'the final report was invalid on every attempt',
    };
  }
  if (reason === 'max_turns') {
    return {
      kind: 'end',
      exitCode: 'EXIT-MAX-TURNS-NO-RESPONSE',
      error: 'the turn limit was reached without a final report',
    };
  }
  return {
    kind: 'end',
    exitCode: 'EXIT-RETRY-EXHAUSTION',
    error: `no final report after the final turn (${reason})`,
  };
}
