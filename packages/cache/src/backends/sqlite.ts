import type BetterSqlite3 from 'better-sqlite3';
import { CacheError } from '../errors.js';
import { openSqliteFile } from '../sqlite-file.js';
import type { CacheBackend, StoredEntry } from '../types.js';

export interface SqliteBackendOptions {
  /** The database file; its directory is made (mode 0700) and the file is created mode 0600. */
  path: string;
  maxEntries: number;
  /** Table for the entries (letters, digits, `_`), so several stores can share one file; default `cache_entries`. */
  table?: string;
  /** How long a write waits for another process's lock before failing, ms (default 2000). */
  busyTimeoutMs?: number;
}

const TABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

interface Row {
  value: Buffer;
  stored_at: number;
  expires_at: number;
}

/**
 * Entries in a SQLite file through `better-sqlite3`, in WAL mode: readers never wait for a
 * writer, and several processes can share the file (each write is one short `BEGIN IMMEDIATE`
 * transaction; a busy lock is waited for up to `busyTimeoutMs`). Recency is a counter bumped on
 * every hit (not a clock, so ties cannot happen); the entry count is kept by triggers, so the
 * bound costs no scan. `better-sqlite3` is synchronous: each statement is short and indexed.
 */
export async function openSqliteBackend(options: SqliteBackendOptions): Promise<CacheBackend> {
  const table = options.table ?? 'cache_entries';
  if (!TABLE_NAME.test(table)) {
    throw new CacheError(`SQLite cache table name ${JSON.stringify(table)} must be letters, digits and _`);
  }
  const db = await openSqliteFile(
    {
      path: options.path,
      busyTimeoutMs: options.busyTimeoutMs,
      // In WAL mode NORMAL loses no consistency, only the last commits on a power cut: fine for a cache.
      synchronous: 'NORMAL',
      schema: schemaSql(table),
    },
    {
      notLoaded: (error) =>
        new CacheError(
          'the SQLite cache needs the better-sqlite3 package, which did not load (was its native build skipped?); use the redis or memory backend instead',
          { cause: error },
        ),
      cannotOpen: (error) =>
        new CacheError(`cannot open the SQLite cache ${options.path}: ${(error as Error).message}`, {
          cause: error,
        }),
    },
  );
  return sqliteBackend(db, options.path, entryStatements(db, table, options.maxEntries));
}

/** The prepared statements of an entries table, the read and the write each one transaction. */
function entryStatements(db: BetterSqlite3.Database, table: string, maxEntries: number) {
  const select = db.prepare<[string], Row>(`SELECT value, stored_at, expires_at FROM ${table} WHERE key = ?`);
  const touch = db.prepare(`UPDATE ${table} SET used = (SELECT max(used) FROM ${table}) + 1 WHERE key = ?`);
  const dropExpiredKey = db.prepare(`DELETE FROM ${table} WHERE key = ? AND expires_at <= ?`);
  const upsert = db.prepare(
    `INSERT INTO ${table} (key, value, stored_at, expires_at, used)
     VALUES (@key, @value, @storedAt, @expiresAt, coalesce((SELECT max(used) FROM ${table}), 0) + 1)
     ON CONFLICT(key) DO UPDATE SET value = excluded.value, stored_at = excluded.stored_at,
       expires_at = excluded.expires_at, used = excluded.used`,
  );
  const purgeExpired = db.prepare(`DELETE FROM ${table} WHERE expires_at <= ?`);
  const count = db.prepare<[], { n: number }>(`SELECT n FROM ${table}_count WHERE id = 0`);
  const evict = db.prepare(
    `DELETE FROM ${table} WHERE key IN (SELECT key FROM ${table} ORDER BY used LIMIT ?)`,
  );
  const remove = db.prepare(`DELETE FROM ${table} WHERE key = ?`);
  const removeAll = db.prepare(`DELETE FROM ${table}`);

  const read = db.transaction((key: string, now: number): StoredEntry | undefined => {
    const row = select.get(key);
    if (row === undefined) return undefined;
    if (row.expires_at <= now) {
      dropExpiredKey.run(key, now);
      return undefined;
    }
    touch.run(key);
    return { value: row.value, storedAt: row.stored_at, expiresAt: row.expires_at };
  });
  const write = db.transaction((key: string, entry: StoredEntry, now: number) => {
    upsert.run({
      key,
      value: Buffer.from(entry.value),
      storedAt: entry.storedAt,
      expiresAt: entry.expiresAt,
    });
    purgeExpired.run(now);
    const over = (count.get()?.n ?? 0) - maxEntries;
    if (over > 0) evict.run(over);
  });
  return { read, write, remove, removeAll, count };
}

type EntryStatements = ReturnType<typeof entryStatements>;

/** The backend over an open file: each call one statement or transaction, a failure a `CacheError`. */
function sqliteBackend(db: BetterSqlite3.Database, path: string, statements: EntryStatements): CacheBackend {
  const { read, write, remove, removeAll, count } = statements;
  let closed = false;
  const guard = <T>(what: string, fn: () => T): T => {
    if (closed) throw new CacheError(`the SQLite cache ${path} is closed`);
    try {
      return fn();
    } catch (error) {
      throw new CacheError(`SQLite cache ${what} failed: ${(error as Error).message}`, { cause: error });
    }
  };
  return {
    name: 'sqlite',
    location: path,
    // `immediate` takes the write lock up front: a hit writes its recency, and two processes
    // upgrading read locks at once would fail instead of waiting.
    async get(key, now) {
      return guard('read', () => read.immediate(key, now));
    },
    async set(key, entry, now) {
      guard('write', () => write.immediate(key, entry, now));
    },
    async delete(key) {
      return guard('delete', () => remove.run(key).changes > 0);
    },
    async size() {
      return guard('count', () => count.get()?.n ?? 0);
    },
    async clear() {
      guard('clear', () => removeAll.run());
    },
    async close() {
      if (closed) return;
      closed = true;
      db.close();
    },
  };
}

/** Tables, indexes and the count triggers, created once (every statement is `IF NOT EXISTS`). */
function schemaSql(table: string): string {
  return `
    BEGIN IMMEDIATE;
    CREATE TABLE IF NOT EXISTS ${table} (
      key TEXT PRIMARY KEY,
      value BLOB NOT NULL,
      stored_at INTEGER NOT NULL,
      expires_at INTEGER NOT NULL,
      used INTEGER NOT NULL
    );
    CREATE INDEX IF NOT EXISTS ${table}_used ON ${table} (used);
    CREATE INDEX IF NOT EXISTS ${table}_expires ON ${table} (expires_at);
    CREATE TABLE IF NOT EXISTS ${table}_count (id INTEGER PRIMARY KEY CHECK (id = 0), n INTEGER NOT NULL);
    INSERT OR IGNORE INTO ${table}_count (id, n) VALUES (0, (SELECT count(*) FROM ${table}));
    CREATE TRIGGER IF NOT EXISTS ${table}_added AFTER INSERT ON ${table}
      BEGIN UPDATE ${table}_count SET n = n + 1 WHERE id = 0; END;
    CREATE TRIGGER IF NOT EXISTS ${table}_removed AFTER DELETE ON ${table}
      BEGIN UPDATE ${table}_count SET n = n - 1 WHERE id = 0; END;
    COMMIT;
  `;
}
