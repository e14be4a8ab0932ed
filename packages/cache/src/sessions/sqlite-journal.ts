import type { TurnJournalEntry } from '@agent/protocol';
import type BetterSqlite3 from 'better-sqlite3';
import { encodeJournalEntry, journalBoundError, journalKeepFor } from './journal-records.js';
import type { SnapshotKeys } from './snapshot-seal.js';

/** The journal table: one row per entry, numbered from 0 per session (the number is sealed in the entry too). */
export const JOURNAL_TABLE_SQL = `CREATE TABLE IF NOT EXISTS journal (
    session_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    entry TEXT NOT NULL,
    bytes INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    PRIMARY KEY (session_id, seq)
  );
  CREATE INDEX IF NOT EXISTS journal_expires ON journal (expires_at);
  `;

/** The turn journals of a SQLite session store. */
export interface SqliteJournal {
  append: BetterSqlite3.Transaction<(id: string, entry: TurnJournalEntry, at: number) => void>;
  /** The stored entries, oldest first (decoded by `decodeJournalEntry`, outside the store's guard). */
  stored(id: string, at: number): string[];
  /** True when the session had entries. */
  drop(id: string): boolean;
  purge(at: number): void;
}

/**
 * The statements of the turn journals in a SQLite session store. `append` is a transaction
 * (bounds checked and the entry numbered inside it); `drop` and `purge` run inside the store's
 * own transactions (a snapshot written drops its session's journal in the same one).
 */
export function sqliteJournal(
  db: BetterSqlite3.Database,
  settings: { where: string; keys: SnapshotKeys; ttlMs: number },
): SqliteJournal {
  const { where, keys, ttlMs } = settings;
  const state = db.prepare<[string], { entries: number; bytes: number }>(
    'SELECT COUNT(*) AS entries, COALESCE(SUM(bytes), 0) AS bytes FROM journal WHERE session_id = ?',
  );
  const insert = db.prepare<[string, number, string, number, number]>(
    'INSERT INTO journal (session_id, seq, entry, bytes, expires_at) VALUES (?, ?, ?, ?, ?)',
  );
  // The journal expires as a whole: every append moves all its entries' expiry.
  const extend = db.prepare<[number, string]>('UPDATE journal SET expires_at = ? WHERE session_id = ?');
  const purge = db.prepare<[number]>('DELETE FROM journal WHERE expires_at <= ?');
  const drop = db.prepare<[string]>('DELETE FROM journal WHERE session_id = ?');
  const select = db.prepare<[string, number], { text: string }>(
    'SELECT entry AS text FROM journal WHERE session_id = ? AND expires_at > ? ORDER BY seq',
  );
  const append = db.transaction((id: string, entry: TurnJournalEntry, at: number) => {
    purge.run(at);
    const now = state.get(id) ?? { entries: 0, bytes: 0 };
    const text = encodeJournalEntry(entry, now.entries, keys);
    const bytes = Buffer.byteLength(text);
    const bound = journalBoundError(where, id, now, bytes);
    if (bound !== undefined) throw bound;
    const expiresAt = at + journalKeepFor(ttlMs);
    extend.run(expiresAt, id);
    insert.run(id, now.entries, text, bytes, expiresAt);
  });
  return {
    append,
    stored: (id: string, at: number): string[] => select.all(id, at).map((row) => row.text),
    drop: (id: string) => drop.run(id).changes > 0,
    purge: (at: number) => {
      purge.run(at);
    },
  };
}
