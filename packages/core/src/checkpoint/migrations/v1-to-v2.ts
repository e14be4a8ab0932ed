import type { ApprovalDecision, PendingToolCall, SessionSnapshot, ToolCall } from '@agent/protocol';
import { argumentsHash } from '../../tools/arguments-hash.js';

/** A version 1 snapshot: pending calls and decisions without `argumentsHash`. */
type V1Snapshot = Omit<SessionSnapshot, 'pending' | 'children'> & {
  pending?: Omit<PendingToolCall, 'argumentsHash'>[];
  children?: Record<string, V1Snapshot>;
};

/**
 * 1 → 2: approvals are bound to the arguments. A pending call is bound to the arguments it
 * was paused with; a recorded decision to its call's arguments in `turnCalls` (what version 1
 * would have run). Paused sub-agents are migrated with it.
 */
export function v1ToV2(
  snapshot: V1Snapshot,
  migrateChild: (child: unknown) => SessionSnapshot,
): SessionSnapshot {
  const byId = new Map<string, ToolCall>((snapshot.turnCalls ?? []).map((call) => [call.id, call]));
  const { pending, decisions, children, ...rest } = snapshot;
  return {
    ...rest,
    version: 2,
    ...(pending === undefined
      ? {}
      : { pending: pending.map((call) => ({ ...call, argumentsHash: argumentsHash(call.arguments) })) }),
    ...(decisions === undefined ? {} : { decisions: boundDecisions(decisions, byId) }),
    ...(children === undefined
      ? {}
      : {
          children: Object.fromEntries(
            Object.entries(children).map(([id, child]) => [id, migrateChild(child)]),
          ),
        }),
  };
}

function boundDecisions(
  decisions: Record<string, ApprovalDecision>,
  calls: ReadonlyMap<string, ToolCall>,
): Record<string, ApprovalDecision> {
  const bound: Record<string, ApprovalDecision> = {};
  for (const [id, decision] of Object.entries(decisions)) {
    const call = calls.get(id);
    bound[id] = call === undefined ? decision : { ...decision, argumentsHash: argumentsHash(call.arguments) };
  }
  return bound;
}
