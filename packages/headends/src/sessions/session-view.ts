import type { SessionSnapshot } from '@agent/protocol';
import { usageTotals } from '../usage.js';
import { pendingCallIds } from './decisions.js';

/** What `GET /v1/sessions/:id` answers about a stored session. */
export function sessionView(snapshot: SessionSnapshot, agentName: string) {
  const pending = new Set(pendingCallIds(snapshot));
  return {
    sessionId: snapshot.sessionId,
    agent: agentName,
    status: snapshot.status,
    turn: snapshot.turn,
    updatedAt: new Date(snapshot.takenAt).toISOString(),
    pendingApprovals: (snapshot.pending ?? []).filter((call) => pending.has(call.callId)),
    ...(snapshot.exitCode === undefined ? {} : { exitCode: snapshot.exitCode }),
    ...(snapshot.finalReport === undefined ? {} : { finalReport: snapshot.finalReport }),
    usage: usageTotals(snapshot),
  };
}
