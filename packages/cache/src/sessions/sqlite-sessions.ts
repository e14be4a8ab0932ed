import { dirname, join } from 'node:path';
import type { ConversationExchange, SessionSnapshot, TurnJournalEntry } from '@agent/protocol';
import type BetterSqlite3 from 'better-sqlite3';
import { SessionStoreError } from '../errors.js';
import { openSqliteFile } from '../sqlite-file.js';
import {
  boundExchanges,
  checkConversationId,
  conversationKeepFor,
  decodeExchange,
  encodeExchange,
} from './conversation-records.js';
import { checkJournalEntry, decodeJournalEntry } from './journal-records.js';
import { checkSqliteStoreKey, KEY_CHECK_TABLE_SQL } from './key-check.js';
import type { SealingSessionStore, SealReport } from './seal-unsealed.js';
import { checkSessionId, decodeSnapshot, encodeSnapshot, keepFor } from './session-records.js';
import { SNAPSHOT_KEY_FILE, storeKeys } from './snapshot-keys.js';
import type { SnapshotKeys } from './snapshot-seal.js';
import { JOURNAL_TABLE_SQL, type SqliteJournal, sqliteJournal } from './sqlite-journal.js';
import { sealUnsealedSqlite } from './sqlite-seal.js';

export interface SqliteSessionStoreOptions {
  /** The database file; its directory is made (mode 0700), the file created mode 0600. */
  path: string;
  /** How long a finished session is kept, ms. */
  ttlMs: number;
  /** How long a write waits for another process's lock, ms (default 2000). */
  busyTimeoutMs?: number;
  /** The clock (tests). */
  now?: () => number;
  /**
   * The keys snapshots are sealed with (HMAC-SHA-256): `current` writes, `previous` still read.
   * Default: `AGENT_SNAPSHOT_KEY` / `AGENT_SNAPSHOT_PREVIOUS_KEYS` of `env`, else the key file
   * (`snapshot.key`, made mode 0600 when missing) beside the database file.
   */
  snapshotKeys?: SnapshotKeys;
  /** Where `AGENT_SNAPSHOT_KEY` and the state directory are read (default `process.env`). */
  env?: Record<string, string | undefined>;
}

/**
 * Session snapshots in a SQLite file (WAL, several processes at once; each write one short
 * transaction). Expired sessions are removed as others are written. `synchronous = FULL`: a
 * checkpoint that was acknowledged survives a power cut, not only a crash.
 */
export async function openSqliteSessionStore(
  options: SqliteSessionStoreOptions,
): Promise<SealingSessionStore> {
  const where = `session store ${options.path}`;
  const db = await openSqliteFile(
    {
      path: options.path,
      busyTimeoutMs: options.busyTimeoutMs,
      synchronous: 'FULL',
      schema:
        expiringTableSql('sessions', 'snapshot') +
        expiringTableSql('conversations', 'exchanges') +
        JOURNAL_TABLE_SQL +
        KEY_CHECK_TABLE_SQL,
    },
    {
      notLoaded: (error) =>
        new SessionStoreError(
          `${where}: the SQLite session store needs better-sqlite3, which did not load; use sessions.store "redis"`,
          { cause: error },
        ),
      cannotOpen: (error) =>
        new SessionStoreError(`cannot open the ${where}: ${(error as Error).message}`, { cause: error }),
    },
  );
  let keys: SnapshotKeys;
  try {
    keys = await storeKeys(options.snapshotKeys, options.env, join(dirname(options.path), SNAPSHOT_KEY_FILE));
    // Processes opening one file with different keys fail here, not session by session later.
    checkSqliteStoreKey(db, where, keys);
  } catch (error) {
    db.close();
    throw error;
  }
  return new SqliteSessionStore(db, where, options, keys);
}

/** A table of one JSON text per id with when it expires (sessions, conversations). */
function expiringTableSql(table: string, column: string): string {
  return `CREATE TABLE IF NOT EXISTS ${table} (
      id TEXT PRIMARY KEY,
      ${column} TEXT NOT NULL,
      updated_at INTEGER NOT NULL,
      expires_at INTEGER NOT NULL
    );
    CREATE INDEX IF NOT EXISTS ${table}_expires ON ${table} (expires_at);
    `;
}

/** The statements of a table `expiringTableSql` made: its text is read and written as `text`. */
function expiringRows(db: BetterSqlite3.Database, table: string, column: string) {
  return {
    select: db.prepare<[string], { text: string; expires_at: number }>(
      `SELECT ${column} AS text, expires_at FROM ${table} WHERE id = ?`,
    ),
    upsert: db.prepare<[{ id: string; text: string; now: number; expiresAt: number }]>(
      `INSERT INTO ${table} (id, ${column}, updated_at, expires_at) VALUES (@id, @text, @now, @expiresAt)
       ON CONFLICT(id) DO UPDATE SET ${column} = excluded.${column}, updated_at = excluded.updated_at,
         expires_at = excluded.expires_at`,
    ),
    purge: db.prepare<[number]>(`DELETE FROM ${table} WHERE expires_at <= ?`),
    remove: db.prepare<[string]>(`DELETE FROM ${table} WHERE id = ?`),
  };
}

class SqliteSessionStore implements SealingSessionStore {
  readonly name = 'sqlite';
  readonly location: string;
  private readonly now: () => number;
  private readonly sessions: ReturnType<typeof expiringRows>;
  private readonly writeSession: BetterSqlite3.Transaction<
    (id: string, snapshot: string, at: number, expiresAt: number) => void
  >;
  private readonly removeSession: BetterSqlite3.Transaction<(id: string) => boolean>;
  private readonly conversations: ReturnType<typeof sqliteConversations>;
  private readonly journal: SqliteJournal;
  private closed = false;

  constructor(
    private readonly db: BetterSqlite3.Database,
    private readonly where: string,
    private readonly options: SqliteSessionStoreOptions,
    private readonly keys: SnapshotKeys,
  ) {
    this.location = options.path;
    this.now = options.now ?? Date.now;
    const sessions = expiringRows(db, 'sessions', 'snapshot');
    this.sessions = sessions;
    const journal = sqliteJournal(db, { where, keys, ttlMs: options.ttlMs });
    this.journal = journal;
    // The snapshot covers the turns journaled before it: the journal goes in the same transaction.
    this.writeSession = db.transaction((id: string, text: string, at: number, expiresAt: number) => {
      sessions.upsert.run({ id, text, now: at, expiresAt });
      journal.drop(id);
      sessions.purge.run(at);
      journal.purge(at);
    });
    this.removeSession = db.transaction((id: string) => {
      const removed = sessions.remove.run(id).changes > 0;
      return journal.drop(id) || removed;
    });
    this.conversations = sqliteConversations(db, this.now, options.ttlMs);
  }

  async save(snapshot: SessionSnapshot): Promise<void> {
    const text = encodeSnapshot(snapshot, this.where, this.keys);
    const at = this.now();
    this.guard(`saving session ${snapshot.sessionId}`, () =>
      this.writeSession.immediate(snapshot.sessionId, text, at, at + keepFor(snapshot, this.options.ttlMs)),
    );
  }

  async load(sessionId: string): Promise<SessionSnapshot | undefined> {
    const id = checkSessionId(sessionId);
    const row = this.guard(`reading session ${id}`, () => this.sessions.select.get(id));
    if (row === undefined || row.expires_at <= this.now()) return undefined;
    return decodeSnapshot(row.text, id, this.where, this.keys);
  }

  async delete(sessionId: string): Promise<boolean> {
    const id = checkSessionId(sessionId);
    return this.guard(`deleting session ${id}`, () => this.removeSession.immediate(id));
  }

  async appendJournal(entry: TurnJournalEntry): Promise<void> {
    const id = checkJournalEntry(entry, this.where);
    this.guard(`adding to the turn journal of session ${id}`, () =>
      this.journal.append.immediate(id, entry, this.now()),
    );
  }

  async loadJournal(sessionId: string): Promise<TurnJournalEntry[]> {
    const id = checkSessionId(sessionId);
    const stored = this.guard(`reading the turn journal of session ${id}`, () =>
      this.journal.stored(id, this.now()),
    );
    return stored.map((text, seq) => decodeJournalEntry(text, id, seq, this.where, this.keys));
  }

  /** Seals the untagged version 1 snapshots it holds (`sealUnsealedSqlite`). */
  async sealUnsealedSnapshots(): Promise<SealReport> {
    return this.guard('sealing the snapshots written before integrity tags', () =>
      sealUnsealedSqlite(this.db, this.keys, this.now()),
    );
  }

  async loadConversation(conversationId: string): Promise<ConversationExchange[]> {
    const id = checkConversationId(conversationId);
    const stored = this.guard(`reading conversation ${id}`, () => this.conversations.read(id));
    return stored.map((text) => decodeExchange(text, id, this.where));
  }

  async appendExchange(conversationId: string, exchange: ConversationExchange): Promise<void> {
    const id = checkConversationId(conversationId);
    const text = encodeExchange(id, exchange, this.where);
    this.guard(`adding to conversation ${id}`, () =>
      this.conversations.append.immediate(id, text, this.now()),
    );
  }

  async deleteConversation(conversationId: string): Promise<boolean> {
    const id = checkConversationId(conversationId);
    return this.guard(`deleting conversation ${id}`, () => this.conversations.remove(id));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.db.close();
  }

  /** Runs one step on the open file; a failure that is not already the store's own becomes a `SessionStoreError`. */
  private guard<T>(what: string, fn: () => T): T {
    if (this.closed) throw new SessionStoreError(`the ${this.where} is closed`);
    try {
      return fn();
    } catch (error) {
      if (error instanceof SessionStoreError) throw error;
      throw new SessionStoreError(`${this.where}: ${what} failed: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }
}

/** Conversations: one row each, its exchanges a JSON list of encoded exchanges, rewritten whole in one transaction. */
function sqliteConversations(db: BetterSqlite3.Database, now: () => number, ttlMs: number) {
  const rows = expiringRows(db, 'conversations', 'exchanges');
  const read = (id: string): string[] => {
    const row = rows.select.get(id);
    if (row === undefined || row.expires_at <= now()) return [];
    return JSON.parse(row.text) as string[];
  };
  const append = db.transaction((id: string, text: string, at: number) => {
    rows.purge.run(at);
    const exchanges = JSON.stringify(boundExchanges([...read(id), text]));
    rows.upsert.run({ id, text: exchanges, now: at, expiresAt: at + conversationKeepFor(ttlMs) });
  });
  return { read, append, remove: (id: string) => rows.remove.run(id).changes > 0 };
}
