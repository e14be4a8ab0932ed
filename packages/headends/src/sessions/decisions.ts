import type { ApprovalDecision, SessionSnapshot } from '@agent/protocol';

/** Longest reason a client may give for a denial (it reaches the model as the tool's failure). */
export const MAX_REASON_CHARS = 2000;

const SHAPE =
  '{ "<callId>": { "approved": true } or { "approved": false, "reason": "..." }, each with an optional "argumentsHash" }';
const HASH = /^sha256:[0-9a-f]{64}$/;

/** Decisions by call id, or why they cannot be used (`conflict`: they do not fit the session). */
export type DecisionsCheck =
  | { ok: true; decisions: Record<string, ApprovalDecision> }
  | { ok: false; kind: 'bad_request' | 'conflict'; message: string };

/** One decision as a client sends it, or what is wrong with it. */
function parseDecision(callId: string, value: unknown): ApprovalDecision | string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return `decision for ${JSON.stringify(callId)} must be an object like { "approved": true }`;
  }
  const { approved, reason, argumentsHash, ...rest } = value as Record<string, unknown>;
  const extra = Object.keys(rest);
  if (extra.length > 0) {
    return `decision for ${JSON.stringify(callId)} has unknown key ${JSON.stringify(extra[0])} (allowed: approved, reason, argumentsHash)`;
  }
  if (argumentsHash !== undefined && (typeof argumentsHash !== 'string' || !HASH.test(argumentsHash))) {
    return `decision for ${JSON.stringify(callId)}: "argumentsHash" must be the pending call's "argumentsHash" (sha256: and 64 hex digits)`;
  }
  const bound = argumentsHash === undefined ? {} : { argumentsHash };
  if (typeof approved !== 'boolean') {
    return `decision for ${JSON.stringify(callId)}: "approved" must be true or false`;
  }
  if (reason !== undefined && typeof reason !== 'string') {
    return `decision for ${JSON.stringify(callId)}: "reason" must be a string`;
  }
  if (typeof reason === 'string' && reason.length > MAX_REASON_CHARS) {
    return `decision for ${JSON.stringify(callId)}: "reason" is longer than ${MAX_REASON_CHARS} characters`;
  }
  if (approved) return { approved: true, ...bound };
  return reason === undefined || reason.trim() === ''
    ? { approved: false, ...bound }
    : { approved: false, reason, ...bound };
}

/** The ids of the calls a paused session waits for (none unless it is paused). */
export function pendingCallIds(snapshot: SessionSnapshot): string[] {
  return snapshot.status === 'awaiting_approval' ? (snapshot.pending ?? []).map((call) => call.callId) : [];
}

/**
 * Checks a client's decisions against the session: each must be well formed and name a call
 * the session waits for. Calls left undecided keep the session paused after the resumed turn.
 */
export function checkDecisions(snapshot: SessionSnapshot, given: unknown): DecisionsCheck {
  if (
    typeof given !== 'object' ||
    given === null ||
    Array.isArray(given) ||
    Object.keys(given).length === 0
  ) {
    return { ok: false, kind: 'bad_request', message: `"decisions" must be a non-empty object: ${SHAPE}` };
  }
  const id = JSON.stringify(snapshot.sessionId);
  if (snapshot.status !== 'awaiting_approval') {
    const why =
      snapshot.status === 'finished'
        ? `it finished (${snapshot.exitCode ?? 'no exit code'})`
        : 'it is not paused (status running)';
    return { ok: false, kind: 'conflict', message: `session ${id} waits for no approval: ${why}` };
  }
  const pending = pendingCallIds(snapshot);
  const decisions: Record<string, ApprovalDecision> = {};
  for (const [callId, value] of Object.entries(given)) {
    if (!pending.includes(callId)) {
      return {
        ok: false,
        kind: 'conflict',
        message: `${JSON.stringify(callId)} is not a pending call of session ${id}; it waits for ${pending.join(', ')}`,
      };
    }
    const decision = parseDecision(callId, value);
    if (typeof decision === 'string') return { ok: false, kind: 'bad_request', message: decision };
    // The session checks it again when it runs the call; refused here too, so the client hears at once.
    const shown = snapshot.pending?.find((call) => call.callId === callId)?.argumentsHash;
    if (decision.argumentsHash !== undefined && shown !== undefined && decision.argumentsHash !== shown) {
      return {
        ok: false,
        kind: 'conflict',
        message: `decision for ${JSON.stringify(callId)} names arguments ${decision.argumentsHash}, but the pending call's arguments hash to ${shown}: decide the call as it is now shown`,
      };
    }
    decisions[callId] = decision;
  }
  return { ok: true, decisions };
}
