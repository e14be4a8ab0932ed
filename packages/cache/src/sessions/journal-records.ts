import type { TurnJournalEntry } from '@agent/protocol';
import { isRecord } from '@agent/protocol/util';
import { SessionStoreError, SnapshotIntegrityError } from '../errors.js';
import { badTagReason, checkSessionId, UNFINISHED_SESSION_TTL_MS } from './session-records.js';
import { type SnapshotKeys, sealSnapshot, unsealSnapshot } from './snapshot-seal.js';

/** A session's journal holds at most this many entries (answers and tool outcomes of one turn). */
export const MAX_JOURNAL_ENTRIES = 1024;
/** A session's journal holds at most this many bytes of stored entries. */
export const MAX_JOURNAL_BYTES = 32 * 1024 * 1024;

/** A journal expires as an unfinished session does (it only exists while its turn is unfinished). */
export function journalKeepFor(ttlMs: number): number {
  return Math.max(ttlMs, UNFINISHED_SESSION_TTL_MS);
}

/** Throws a `ConfigError` or `SessionStoreError` for an entry no store should keep. */
export function checkJournalEntry(entry: TurnJournalEntry, where: string): string {
  const id = checkSessionId(isRecord(entry) ? entry.sessionId : undefined);
  const kind = (entry as { kind?: unknown }).kind;
  if (kind !== 'answer' && kind !== 'tool_outcome') {
    throw new SessionStoreError(
      `${where}: a journal entry of session ${id} has kind ${JSON.stringify(kind)}; allowed: "answer" or "tool_outcome"`,
    );
  }
  if (!Number.isSafeInteger(entry.turn) || entry.turn < 0) {
    throw new SessionStoreError(
      `${where}: a journal entry of session ${id} has turn ${JSON.stringify(entry.turn)}; allowed: a whole number >= 0`,
    );
  }
  return id;
}

/**
 * One entry as stored: its JSON with its place in the journal (`seq`), sealed with the current
 * snapshot key, so an entry edited, moved to another session or to another place is refused.
 */
export function encodeJournalEntry(entry: TurnJournalEntry, seq: number, keys: SnapshotKeys): string {
  return sealSnapshot(JSON.stringify({ journal: 1, seq, entry }), keys);
}

/** Why an entry cannot be added: the journal would pass a bound (nothing was written). */
export function journalBoundError(
  where: string,
  sessionId: string,
  state: { entries: number; bytes: number },
  adding: number,
): SessionStoreError | undefined {
  if (state.entries + 1 > MAX_JOURNAL_ENTRIES) {
    return new SessionStoreError(
      `${where}: the turn journal of session ${sessionId} already holds ${state.entries} entries, the bound is ${MAX_JOURNAL_ENTRIES} entries per session; the entry was not stored`,
    );
  }
  if (state.bytes + adding > MAX_JOURNAL_BYTES) {
    return new SessionStoreError(
      `${where}: the turn journal of session ${sessionId} would reach ${state.bytes + adding} bytes, over the bound of ${MAX_JOURNAL_BYTES} bytes per session; the entry was not stored`,
    );
  }
  return undefined;
}

/**
 * A stored entry read back, at place `seq` of session `sessionId`'s journal. A tag that matches
 * no key, or an entry that names another session or place, is refused with
 * `SnapshotIntegrityError`: an edited journal could make a resumed session run tool calls the
 * model never asked for.
 */
export function decodeJournalEntry(
  stored: string,
  sessionId: string,
  seq: number,
  where: string,
  keys: SnapshotKeys,
): TurnJournalEntry {
  const refuse = (why: string) =>
    new SnapshotIntegrityError(
      `${where}: entry ${seq} of the turn journal of session ${sessionId} fails its integrity check: ${why}; the session is not resumed from it`,
    );
  const unsealed = unsealSnapshot(stored, keys);
  if (unsealed.kind === 'unsealed') throw refuse('it has no integrity tag');
  if (unsealed.kind === 'bad-tag') throw refuse(badTagReason(keys));
  let value: unknown;
  try {
    value = JSON.parse(unsealed.json);
  } catch (error) {
    throw new SessionStoreError(
      `${where}: entry ${seq} of the turn journal of session ${sessionId} is not valid JSON`,
      {
        cause: error,
      },
    );
  }
  if (!isRecord(value) || value.journal !== 1 || !isRecord(value.entry)) {
    throw new SessionStoreError(
      `${where}: entry ${seq} of the turn journal of session ${sessionId} is not a journal entry`,
    );
  }
  if (value.seq !== seq) throw refuse(`it was written as entry ${JSON.stringify(value.seq)}`);
  if (value.entry.sessionId !== sessionId) throw refuse('it was written for another session');
  return value.entry as unknown as TurnJournalEntry;
}
