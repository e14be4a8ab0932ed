import type { ApprovalDecision, SessionSnapshot } from '@agent/protocol';

/** Longest reason a client may give for a denial (it reaches the model as the tool's failure). */
export const MAX_REASON_CHARS = 2000;

const SHAPE = '{ "<callId>": { "approved": true } or { "approved": false, "reason": "..." } }';

/** Decisions by call id, or why they cannot be used (`conflict`: they do not fit the session). */
export type DecisionsCheck =
  | { ok: true; decisions: Record<string, ApprovalDecision> }
  | { ok: false; kind: 'bad_request' | 'conflict'; message: string };

/** One decision as a client sends it, or what is wrong with it. */
function parseDecision(callId: string, value: unknown): ApprovalDecision | string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return `decision for ${JSON.stringify(callId)} must be an object like { "approved": true }`;
  }
  const { approved, reason, ...rest } = value as Record<string, unknown>;
  const extra = Object.keys(rest);
  if (extra.length > 0) {
    return `decision for ${JSON.stringify(callId)} has unknown key ${JSON.stringify(extra[0])} (allowed: approved, reason)`;
  }
  if (typeof approved !== 'boolean') {
    return `decision for ${JSON.stringify(callId)}: "approved" must be true or false`;
  }
  if (reason !== undefined && typeof reason !== 'string') {
    return `decision for ${JSON.stringify(callId)}: "reason" must be a string`;
  }
  if (typeof reason === 'string' && reason.length > MAX_REASON_CHARS) {
    return `decision for ${JSON.stringify(callId)}: "reason" is longer than ${MAX_REASON_CHARS} characters`;
  }
  if (approved) return { approved: true };
  return reason === undefined || reason.trim() === '' ? { approved: false } : { approved: false, reason };
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
    decisions[callId] = decision;
  }
  return { ok: true, decisions };
}
