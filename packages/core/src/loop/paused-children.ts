import type {
  ApprovalDecision,
  PausedChild,
  PendingToolCall,
  SessionSnapshot,
  ToolCall,
} from '@agent/protocol';
import type { PausedCall } from '../tools/tool-executor.js';
import type { TurnEnd } from './turn-end.js';

/*
 * A sub-agent that pauses for approval pauses its whole tree (docs/sessions.md): the calling
 * session pauses with the turn in flight, its pending calls are the sub-agents' pending calls
 * addressed `<its callId>/<their callId>` (nested as deep as the tree), and each paused
 * sub-agent session is kept in the snapshot under the call that ran it. On resume the turn's
 * calls run again; those that ran a paused sub-agent continue its session with the decisions
 * addressed to it.
 */

/** Separates a call id from the id of a call inside the sub-agent it ran. */
export const CHILD_CALL_SEPARATOR = '/';

/** The pause of a turn whose calls ran sub-agents that paused; `decisions`: the gate's, kept. */
export function childrenPause(
  turnCalls: readonly ToolCall[],
  paused: readonly PausedCall[],
  decisions: Record<string, ApprovalDecision>,
): TurnEnd {
  const pending: PendingToolCall[] = [];
  const children: Record<string, SessionSnapshot> = {};
  for (const call of paused) {
    children[call.callId] = call.snapshot;
    for (const inner of call.pending) {
      pending.push({ ...inner, callId: `${call.callId}${CHILD_CALL_SEPARATOR}${inner.callId}` });
    }
  }
  return { kind: 'pause', paused: { turnCalls: [...turnCalls], pending, decisions, children } };
}

/**
 * For a resumed paused turn: each paused sub-agent session, by the call that ran it, with the
 * decisions given for its calls (their `<callId>/` prefix taken off).
 */
export function childResumes(
  resumeFrom: SessionSnapshot | undefined,
  approvals: Readonly<Record<string, ApprovalDecision>> | undefined,
): Map<string, PausedChild> {
  const resumes = new Map<string, PausedChild>();
  for (const [callId, snapshot] of Object.entries(resumeFrom?.children ?? {})) {
    const prefix = `${callId}${CHILD_CALL_SEPARATOR}`;
    const own: Record<string, ApprovalDecision> = {};
    for (const [id, decision] of Object.entries(approvals ?? {})) {
      if (id.startsWith(prefix)) own[id.slice(prefix.length)] = decision;
    }
    resumes.set(callId, { snapshot, approvals: own });
  }
  return resumes;
}
