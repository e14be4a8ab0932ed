import type { ExitCode, ForcedFinalReason, GuardrailTrip } from '@agent/protocol';
import { tripMessage } from '../guardrails/guardrail-runner.js';
import type { PausedTurn, SessionState } from './session-state.js';
import type { TargetRotation } from './target-rotation.js';

/** How one turn ended. */
export type TurnEnd =
  | { kind: 'report' }
  | { kind: 'tools'; forceFinal?: ForcedFinalReason }
  | { kind: 'force-final'; reason: ForcedFinalReason }
  | { kind: 'end'; exitCode: ExitCode; error: string; guardrail?: GuardrailTrip }
  /** Tool calls wait for a person's decision and no approver can give it now. */
  | { kind: 'pause'; paused: PausedTurn };

/** The session was aborted (by its signal or `stop('abort')`). */
export const ABORTED: TurnEnd = { kind: 'end', exitCode: 'EXIT-ABORTED', error: 'the session was cancelled' };

/** `base`, then the last error of each target in the provider's words, when there are any. */
function withCauses(base: string, lastErrors: readonly string[] | undefined): string {
  return lastErrors === undefined || lastErrors.length === 0 ? base : `${base}: ${lastErrors.join('; ')}`;
}

/** The turn cannot go on because no target is left. */
export function noTargetLeft(
  rotation: TargetRotation,
  isFinal: boolean,
  lastErrors: readonly string[],
): TurnEnd {
  const exitCode = rotation.exhaustedExitCode();
  if (exitCode === 'EXIT-TOKEN-LIMIT' && !isFinal) return { kind: 'force-final', reason: 'context' };
  const what: Partial<Record<ExitCode, string>> = {
    'EXIT-AUTH-FAILURE': 'every model rejected the credentials',
    'EXIT-QUOTA-EXCEEDED': 'every model is out of quota',
    'EXIT-TOKEN-LIMIT': 'the conversation no longer fits any model',
  };
  return { kind: 'end', exitCode, error: withCauses(what[exitCode] ?? 'no model could be used', lastErrors) };
}

/**
 * How the session ends when its final turn gave no report. `lastErrors` is set when every
 * attempt of the turn was a model error: the error then says what each target answered.
 */
export function finalTurnFailed(
  state: SessionState,
  maxRetries: number,
  lastErrors: readonly string[] | undefined,
): TurnEnd {
  const reason = state.forcedFinal ?? 'max_turns';
  if (reason === 'context') {
    return {
      kind: 'end',
      exitCode: 'EXIT-TOKEN-LIMIT',
      error: withCauses('the context window filled up and the final turn gave no report', lastErrors),
    };
  }
  if (reason === 'user_stop') {
    return {
      kind: 'end',
      exitCode: 'EXIT-USER-STOP',
      error: withCauses('stopped by the user; the final turn gave no report', lastErrors),
    };
  }
  if (lastErrors !== undefined) {
    return {
      kind: 'end',
      exitCode: 'EXIT-NO-LLM-RESPONSE',
      error: withCauses(`no model answered on the final turn after ${maxRetries} attempts`, lastErrors),
    };
  }
  if (state.lastParsed !== undefined) return schemaMismatch(state);
  if (state.finalReportFailedEver) {
    const last = state.lastRejected;
    return {
      kind: 'end',
      exitCode: 'EXIT-INVALID-FINAL-REPORT',
      error: `the final report was invalid on every attempt${last === undefined ? '' : `; the last one (${last.slug}): ${last.reason}`}`,
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

/**
 * Every attempt was refused and one parsed as JSON: that one is the result (seed 000: "log
 * validation errors but don't fail"; seed 002: "does not abort; it still completes"), with its
 * own marker so no caller takes it for a valid report.
 */
function schemaMismatch(state: SessionState): TurnEnd {
  const errors = (state.lastParsed?.validationErrors ?? [])
    .slice(0, 3)
    .map((e) => `${e.instancePath === '' ? '/' : e.instancePath}: ${e.message}`);
  const attempts = state.finalReportAttempts;
  return {
    kind: 'end',
    exitCode: 'EXIT-FINAL-REPORT-SCHEMA-MISMATCH',
    error: `the final report does not match the output schema after ${attempts} attempt${attempts === 1 ? '' : 's'}; the last parsed one is the result: ${errors.join('; ')}`,
  };
}

/** A guardrail tripped: the run ends `EXIT-GUARDRAIL` (or `EXIT-ABORTED` when the session was cancelled meanwhile). */
export function guardrailEnd(trip: GuardrailTrip, signal: AbortSignal): TurnEnd {
  if (signal.aborted) return ABORTED;
  return { kind: 'end', exitCode: 'EXIT-GUARDRAIL', error: tripMessage(trip), guardrail: trip };
}
