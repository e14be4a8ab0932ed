import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import type { SessionSnapshot, SessionStore } from '@agent/protocol';
import type BetterSqlite3 from 'better-sqlite3';
import { SessionStoreError } from '../errors.js';
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
    CREATE INDEX IF NOT EXISTS sessions_expires ON sessions (expires_at);`);
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
    async close() {
      if (closed) return;
      closed = true;
      db.close();
    },
  };
}
