import { emptyTotals, type RecordNode, SESSION_RECORD_KIND, type SessionRecord } from '@agent/protocol';

/** A finished record node: ok, from 0 to 1 ms, no children unless given. */
export function recordNode(
  fields: Partial<RecordNode> & Pick<RecordNode, 'id' | 'kind' | 'label'>,
): RecordNode {
  return { startedAt: 0, endedAt: 1, status: 'ok', children: [], ...fields };
}

/** A stored record of the session `s` of agent `lead` around `tree` (a success unless told). */
export function sessionRecord(tree: RecordNode, fields: Partial<SessionRecord> = {}): SessionRecord {
  return {
    kind: SESSION_RECORD_KIND,
    version: 1,
    sessionId: 's',
    agent: 'lead',
    startedAt: 0,
    endedAt: 2,
    durationMs: 2,
    success: true,
    exitCode: 'EXIT-FINAL-ANSWER',
    totals: emptyTotals(),
    tree,
    logs: [],
    accounting: [],
    ...fields,
  };
}
