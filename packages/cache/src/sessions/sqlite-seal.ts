import type BetterSqlite3 from 'better-sqlite3';
import { type SealReport, SealTally, sealVerdict } from './seal-unsealed.js';
import { SEAL_PREFIX, type SnapshotKeys } from './snapshot-seal.js';

/** Ids read per page: the scan holds one page of ids and one snapshot at a time. */
const PAGE = 100;

/**
 * Seals the untagged version 1 snapshots of a SQLite session store (`sealVerdict`). Walks the
 * live untagged rows in pages of ids; each snapshot is re-read and rewritten in its own
 * transaction, so one saved meanwhile is judged as it now is. Expiry is left as it was.
 */
export function sealUnsealedSqlite(db: BetterSqlite3.Database, keys: SnapshotKeys, now: number): SealReport {
  const page = db.prepare<[string, number, number, string, number], { id: string }>(
    `SELECT id FROM sessions WHERE id > ? AND expires_at > ? AND substr(snapshot, 1, ?) <> ?
     ORDER BY id LIMIT ?`,
  );
  const read = db.prepare<[string], { text: string }>('SELECT snapshot AS text FROM sessions WHERE id = ?');
  const write = db.prepare<[string, string]>('UPDATE sessions SET snapshot = ? WHERE id = ?');
  const tally = new SealTally();
  const sealOne = db.transaction((id: string) => {
    const row = read.get(id);
    if (row === undefined) return;
    const verdict = sealVerdict(row.text, id, keys);
    if (verdict.kind === 'seal') {
      write.run(verdict.text, id);
      tally.sealed();
    } else if (verdict.kind === 'skip') tally.skipped(id, verdict.why);
  });
  let after = '';
  for (;;) {
    const ids = page.all(after, now, SEAL_PREFIX.length, SEAL_PREFIX, PAGE).map((row) => row.id);
    for (const id of ids) sealOne.immediate(id);
    if (ids.length < PAGE) return tally.done();
    after = ids[ids.length - 1]!;
  }
}
