import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';

/** How a SQLite store of this package reports: better-sqlite3 not loading, and the file not opening. */
export interface SqliteFailures {
  notLoaded: (error: unknown) => Error;
  cannotOpen: (error: unknown) => Error;
}

export interface SqliteFileOptions {
  path: string;
  /** How long a write waits for another process's lock before failing, ms (default 2000). */
  busyTimeoutMs?: number | undefined;
  /** `NORMAL` or `FULL`: what a power cut may cost (WAL mode keeps the file consistent either way). */
  synchronous: 'NORMAL' | 'FULL';
  /** Run once the file is open: the store's tables (every statement `IF NOT EXISTS`). */
  schema: string;
}

/**
 * A SQLite file opened in WAL mode through `better-sqlite3` (loaded on first use): its directory
 * made mode 0700 and the file created mode 0600, so what it holds is readable by this user only.
 */
export async function openSqliteFile(
  options: SqliteFileOptions,
  failures: SqliteFailures,
): Promise<BetterSqlite3.Database> {
  let Database: typeof BetterSqlite3;
  try {
    Database = (await import('better-sqlite3')).default;
  } catch (error) {
    throw failures.notLoaded(error);
  }
  let db: BetterSqlite3.Database | undefined;
  try {
    mkdirSync(dirname(options.path), { recursive: true, mode: 0o700 });
    closeSync(openSync(options.path, 'a', 0o600));
    db = new Database(options.path, { timeout: options.busyTimeoutMs ?? 2000 });
    db.pragma('journal_mode = WAL');
    db.pragma(`synchronous = ${options.synchronous}`);
    db.exec(options.schema);
    return db;
  } catch (error) {
    db?.close();
    throw failures.cannotOpen(error);
  }
}
