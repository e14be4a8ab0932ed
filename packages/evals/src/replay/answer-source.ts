import type { ModelErrorKind, SessionTape, TapeModelCall } from '@agent/protocol';
import { MODEL_ERROR_KINDS } from '@agent/protocol';
import { NONCE_PLACEHOLDER, type RecordedRequest, type ScriptedAnswer } from '@agent/testkit';
import type { Divergence, SessionLabel } from '../types.js';
import { replaceNonce, tapeNonce } from './normalise.js';

/** The model calls of every session, answered in order: the testkit server's handler in a replay. */
export interface AnswerSource {
  answer(request: RecordedRequest): ScriptedAnswer;
  /** What went wrong while answering: calls past a tape's end, sessions the record lacks. */
  readonly divergences: readonly Divergence[];
}

/**
 * Answers the n-th request of each scope (a session label) with the n-th call of that
 * session's tape: its text with the old nonce replaced by `{{NONCE}}` (the server fills in the
 * new session's), its tool calls with their recorded ids and raw arguments, its recorded usage
 * (so the context notices match) and stop reason, or its recorded error. Re-entrant: sessions
 * run concurrently, and each keeps its own count.
 */
export function createAnswerSource(tapes: ReadonlyMap<SessionLabel, SessionTape>): AnswerSource {
  const taken = new Map<SessionLabel, number>();
  const divergences: Divergence[] = [];
  const nonces = new Map<SessionLabel, string | undefined>();
  const nonceOf = (label: SessionLabel, tape: SessionTape): string | undefined => {
    if (!nonces.has(label)) nonces.set(label, tapeNonce(tape));
    return nonces.get(label);
  };

  function answer(request: RecordedRequest): ScriptedAnswer {
    const label = request.scope;
    if (label === undefined)
      return refusal('a model request without a session scope reached the replay server');
    const tape = tapes.get(label);
    if (tape === undefined) {
      divergences.push({
        kind: 'session',
        session: label,
        message: `${label}: the replay ran a session the record does not have`,
      });
      return refusal(`the record has no session ${label}`);
    }
    const index = taken.get(label) ?? 0;
    taken.set(label, index + 1);
    const call = tape.calls[index];
    if (call === undefined) {
      divergences.push({
        kind: 'exhausted',
        session: label,
        call: index,
        message: `${label}: the replay asked for model call ${index + 1}, the record has ${tape.calls.length}`,
      });
      return refusal(
        `the record has no model call ${index + 1} for session ${label} (it has ${tape.calls.length})`,
      );
    }
    return recordedAnswer(call, nonceOf(label, tape));
  }

  return { answer, divergences };
}

/** A recorded call as the testkit scripts it. */
export function recordedAnswer(call: TapeModelCall, nonce: string | undefined): ScriptedAnswer {
  if (call.error !== undefined || call.answer === undefined) {
    const error = call.error ?? { message: 'the recorded call has neither an answer nor an error' };
    return {
      error: {
        kind: modelErrorKind(error.kind),
        message: error.message,
        ...(error.status === undefined ? {} : { status: error.status }),
      },
    };
  }
  const { text, reasoning, toolCalls, usage, stopReason, rawStopReason } = call.answer;
  return {
    text: replaceNonce(text, nonce, NONCE_PLACEHOLDER),
    ...(reasoning === undefined || reasoning.length === 0
      ? {}
      : {
          reasoning: reasoning.map((block) => ({
            text: block.text,
            ...(block.signature === undefined ? {} : { signature: block.signature }),
          })),
        }),
    toolCalls: toolCalls.map((toolCall) => ({
      id: toolCall.id,
      name: toolCall.name,
      arguments: toolCall.arguments,
    })),
    ...(usage === undefined ? {} : { usage }),
    ...(stopReason === undefined ? {} : { stopReason }),
    ...(rawStopReason === undefined ? {} : { rawStopReason }),
  };
}

function modelErrorKind(kind: string | undefined): ModelErrorKind {
  return MODEL_ERROR_KINDS.includes(kind as ModelErrorKind) ? (kind as ModelErrorKind) : 'server';
}

/** Ends the call with an error the clients do not retry (HTTP 400). */
function refusal(why: string): ScriptedAnswer {
  return { error: { kind: 'bad_request', message: `agent replay: ${why}` } };
}
