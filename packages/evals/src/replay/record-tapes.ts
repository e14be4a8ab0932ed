import type { RecordNode, SessionKey, SessionRecord, SessionTape } from '@agent/protocol';
import { RuntimeError } from '@agent/runtime';
import type { SessionLabel } from '../types.js';

/** `lead#0`: how divergences and the model server's scopes name a session. */
export function sessionLabel(key: SessionKey): SessionLabel {
  return `${key.agentPath}#${key.ordinal}`;
}

/** Every session tape of a record by label, in tree order (the root first). Walks without recursion. */
export function recordTapes(record: SessionRecord): Map<SessionLabel, SessionTape> {
  const tapes = new Map<SessionLabel, SessionTape>();
  const pending: RecordNode[] = [record.tree];
  while (pending.length > 0) {
    const node = pending.shift() as RecordNode;
    if (node.tape !== undefined) tapes.set(sessionLabel(node.tape), node.tape);
    pending.push(...node.children);
  }
  return tapes;
}

/**
 * Throws a `RuntimeError` (`configuration`) saying why a record cannot be replayed and what to
 * do: version 1 (no requests were kept), payloads dropped (over the size bound), no input or
 * no tape, or no agent file to run.
 */
export function assertReplayable(record: SessionRecord, name: string, agent: string | undefined): void {
  const refuse = (why: string): never => {
    throw new RuntimeError({ kind: 'configuration', message: `${name}: cannot replay: ${why}` });
  };
  if (record.version < 2)
    refuse(
      `it is a version ${record.version} session record, which keeps no model requests or answers; record the session again with this version of agent (persistence.sessionsDir) to replay it`,
    );
  if (record.payloadsDropped !== undefined)
    refuse(
      `its payloads (and with them the model and tool calls) were dropped (${record.payloadsDropped}); a shorter session can be replayed`,
    );
  if (record.input === undefined) refuse('it has no "input" (the prompt the run was given)');
  if (record.tree.tape === undefined) refuse('its session has no "tape" (the recorded model and tool calls)');
  if (agent === undefined && record.input?.agentFile === undefined)
    refuse('it does not name its agent file; pass the agent to run (--agent file.ai, or the "agent" option)');
}
