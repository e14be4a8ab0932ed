import type { RecordNode, SessionKey, SessionRecord, SessionTape } from '@agent/protocol';
import { RuntimeError } from '@agent/runtime';
import type { SessionLabel } from '../types.js';
import { tapeProblem } from './tape-shape.js';

/** `lead#0`: how divergences and the model server's scopes name a session. */
export function sessionLabel(key: SessionKey): SessionLabel {
  return `${key.agentPath}#${key.ordinal}`;
}

/** How a replay names the sessions of its run, so they line up with the record's. */
export type SessionLabeler = (key: SessionKey) => SessionLabel;

/**
 * Labels that read the replayed run's root agent path as the record's: `--agent changed.ai`
 * runs `changed` and `changed.helper`, which replay `lead` and `lead.helper`. `root()` gives
 * both paths once known (the runner names its root after it loads).
 */
export function rootRenaming(root: () => { replayed: string; recorded: string } | undefined): SessionLabeler {
  return (key) => {
    const paths = root();
    if (paths === undefined || paths.replayed === paths.recorded) return sessionLabel(key);
    const { agentPath } = key;
    if (agentPath === paths.replayed) return sessionLabel({ ...key, agentPath: paths.recorded });
    if (agentPath.startsWith(`${paths.replayed}.`))
      return sessionLabel({ ...key, agentPath: paths.recorded + agentPath.slice(paths.replayed.length) });
    return sessionLabel(key);
  };
}

/** Every session tape of a record by label, in tree order (the root first). Walks without recursion. */
export function recordTapes(
  record: SessionRecord,
  label: SessionLabeler = sessionLabel,
): Map<SessionLabel, SessionTape> {
  const tapes = new Map<SessionLabel, SessionTape>();
  const pending: RecordNode[] = [record.tree];
  while (pending.length > 0) {
    const node = pending.shift() as RecordNode;
    if (node.tape !== undefined) tapes.set(label(node.tape), node.tape);
    pending.push(...node.children);
  }
  return tapes;
}

/**
 * Throws a `RuntimeError` (`configuration`) saying why a record cannot be replayed and what to
 * do: version 1 (no requests were kept), payloads dropped (over the size bound), no input or
 * no tape, a malformed tape, or no agent file to run.
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
  const pending: RecordNode[] = [record.tree];
  while (pending.length > 0) {
    const node = pending.pop() as RecordNode;
    const problem = node.tape === undefined ? undefined : tapeProblem(node.tape);
    if (problem !== undefined) refuse(`it is malformed: ${problem}`);
    pending.push(...node.children);
  }
  if (agent === undefined && record.input?.agentFile === undefined)
    refuse('it does not name its agent file; pass the agent to run (--agent file.ai, or the "agent" option)');
}
