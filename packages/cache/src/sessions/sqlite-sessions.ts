import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import type { ConversationExchange, SessionSnapshot, SessionStore } from '@agent/protocol';
import type BetterSqlite3 from 'better-sqlite3';
import { SessionStoreError } from '../errors.js';
import {
  boundExchanges,
  checkConversationId,
  conversationKeepFor,
  decodeExchange,
  encodeExchange,
} from './conversation-records.js';
import { checkSessionId, decodeSnapshot, encodeSnapshot, keepFor } from './session-records.js';

export interface SqliteSessionStoreOptions {
  /** The database file; its directory is made (mode 0700), the file created mode 0600. */
  path: string;
  /** How long a finished session is kept, ms. */
  ttlMs: number;
  /** How long a write waits for another process's lock, ms (default 2000). */
  busyTimeoutMs?: number;
  /** The clock (tests). */
  now?: () => number;
}

interface Row {
  snapshot: string;
  expires_at: number;
}

/**
 * Session snapshots in a SQLite file (WAL, several processes at once; each write one short
 * transaction). Expired sessions are removed as others are written. `synchronous = FULL`: a
 * checkpoint that was acknowledged survives a power cut, not only a crash.
 */
export async function openSqliteSessionStore(options: SqliteSessionStoreOptions): Promise<SessionStore> {
  const where = `session store ${options.path}`;
  let Database: typeof BetterSqlite3;
  try {
    Database = (await import('better-sqlite3')).default;
  } catch (error) {
    throw new SessionStoreError(
      `${where}: the SQLite session store needs better-sqlite3, which did not load; use sessions.store "redis"`,
      { cause: error },
    );
  }
  let db: BetterSqlite3.Database | undefined;
  try {
    mkdirSync(dirname(options.path), { recursive: true, mode: 0o700 });
    closeSync(openSync(options.path, 'a', 0o600));
    db = new Database(options.path, { timeout: options.busyTimeoutMs ?? 2000 });
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.exec(`CREATE TABLE IF NOT EXISTS sessions (
      id TEXT PRIMARY KEY,
      snapshot TEXT NOT NULL,
      updated_at INTEGER NOT NULL,
      expires_at INTEGER NOT NULL
    );
    CREATE INDEX IF NOT EXISTS sessions_expires ON sessions (expires_at);
    CREATE TABLE IF NOT EXISTS conversations (
      id TEXT PRIMARY KEY,
      exchanges TEXT NOT NULL,
      updated_at INTEGER NOT NULL,
      expires_at INTEGER NOT NULL
    );
    CREATE INDEX IF NOT EXISTS conversations_expires ON conversations (expires_at);`);
  } catch (error) {
    db?.close();
    throw new SessionStoreError(`cannot open the ${where}: ${(error as Error).message}`, { cause: error });
  }
  return sqliteSessionStore(db, where, options);
}

function sqliteSessionStore(
  db: BetterSqlite3.Database,
  where: string,
  options: SqliteSessionStoreOptions,
): SessionStore {
  const now = options.now ?? Date.now;
  const select = db.prepare<[string], Row>('SELECT snapshot, expires_at FROM sessions WHERE id = ?');
  const upsert = db.prepare(
    `INSERT INTO sessions (id, snapshot, updated_at, expires_at) VALUES (@id, @snapshot, @now, @expiresAt)
     ON CONFLICT(id) DO UPDATE SET snapshot = excluded.snapshot, updated_at = excluded.updated_at,
       expires_at = excluded.expires_at`,
  );
  const purge = db.prepare('DELETE FROM sessions WHERE expires_at <= ?');
  const remove = db.prepare('DELETE FROM sessions WHERE id = ?');
  const write = db.transaction((id: string, snapshot: string, at: number, expiresAt: number) => {
    upsert.run({ id, snapshot, now: at, expiresAt });
    purge.run(at);
  });
  const conversations = sqliteConversations(db, now, options.ttlMs);
  let closed = false;
  const guard = <T>(what: string, fn: () => T): T => {
    if (closed) throw new SessionStoreError(`the ${where} is closed`);
    try {
      return fn();
    } catch (error) {
      if (error instanceof SessionStoreError) throw error;
      throw new SessionStoreError(`${where}: ${what} failed: ${(error as Error).message}`, { cause: error });
    }
  };
  return {
    name: 'sqlite',
    location: options.path,
    async save(snapshot: SessionSnapshot) {
      const text = encodeSnapshot(snapshot, where);
      const at = now();
      guard(`saving session ${snapshot.sessionId}`, () =>
        write.immediate(snapshot.sessionId, text, at, at + keepFor(snapshot, options.ttlMs)),
      );
    },
    async load(sessionId: string) {
      const id = checkSessionId(sessionId);
      const row = guard(`reading session ${id}`, () => select.get(id));
      if (row === undefined || row.expires_at <= now()) return undefined;
      return decodeSnapshot(row.snapshot, id, where);
    },
    async delete(sessionId: string) {
      const id = checkSessionId(sessionId);
      return guard(`deleting session ${id}`, () => remove.run(id).changes > 0);
    },
    async loadConversation(conversationId: string) {
      const id = checkConversationId(conversationId);
      const stored = guard(`reading conversation ${id}`, () => conversations.read(id));
      return stored.map((text) => decodeExchange(text, id, where));
    },
    async appendExchange(conversationId: string, exchange: ConversationExchange) {
      const id = checkConversationId(conversationId);
      const text = encodeExchange(id, exchange, where);
      guard(`adding to conversation ${id}`, () => conversations.append.immediate(id, text, now()));
    },
    async deleteConversation(conversationId: string) {
      const id = checkConversationId(conversationId);
      return guard(`deleting conversation ${id}`, () => conversations.remove(id));
    },
    async close() {
      if (closed) return;
      closed = true;
      db.close();
    },
  };
}

/** Conversations: one row each, its exchanges a JSON list of encoded exchanges, rewritten whole in one transaction. */
function sqliteConversations(db: BetterSqlite3.Database, now: () => number, ttlMs: number) {
  const select = db.prepare<[string], { exchanges: string; expires_at: number }>(
    'SELECT exchanges, expires_at FROM conversations WHERE id = ?',
  );
  const upsert = db.prepare(
    `INSERT INTO conversations (id, exchanges, updated_at, expires_at) VALUES (@id, @exchanges, @now, @expiresAt)
     ON CONFLICT(id) DO UPDATE SET exchanges = excluded.exchanges, updated_at = excluded.updated_at,
       expires_at = excluded.expires_at`,
  );
  const purge = db.prepare('DELETE FROM conversations WHERE expires_at <= ?');
  const removeRow = db.prepare('DELETE FROM conversations WHERE id = ?');
  const read = (id: string): string[] => {
    const row = select.get(id);
    if (row === undefined || row.expires_at <= now()) return [];
    return JSON.parse(row.exchanges) as string[];
  };
  const append = db.transaction((id: string, text: string, at: number) => {
    purge.run(at);
    const exchanges = JSON.stringify(boundExchanges([...read(id), text]));
    upsert.run({ id, exchanges, now: at, expiresAt: at + conversationKeepFor(ttlMs) });
  });
  return { read, append, remove: (id: string) => removeRow.run(id).changes > 0 };
}
