import { createHash } from 'node:crypto';

/**
 * A tool call's idempotency key (`docs/sessions.md`, "Exactly once across a crash"): hex SHA-256
 * of `[sessionId, turn, callId]` as JSON. The same call of the same turn of the same session
 * gets the same key in a resumed process; 64 hex digits, safe in an HTTP header whatever the
 * model put in its call id.
 */
export function idempotencyKey(sessionId: string, turn: number, callId: string): string {
  return createHash('sha256')
    .update(JSON.stringify([sessionId, turn, callId]))
    .digest('hex');
}
