import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, type Stats } from 'node:fs';
import { dirname } from 'node:path';
import { nonRegularKind } from '@agent/protocol/util';
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

// O_NONBLOCK: a FIFO planted at the path fails at once (ENXIO) or opens without waiting for a
// reader, and is then refused by its fstat, instead of blocking open(2) (and SIGTERM) forever.
const CREATE_FLAGS =
  constants.O_WRONLY |
  constants.O_CREAT |
  constants.O_APPEND |
  (constants.O_NONBLOCK ?? 0) |
  (constants.O_NOCTTY ?? 0);

/** The files SQLite opens beside the database: a FIFO or device at one of them is refused too. */
const COMPANIONS = ['-wal', '-shm', '-journal'];

/**
 * Creates the database file mode 0600 if missing, and checks that it (through one handle) and
 * its WAL companions are regular files. Throws an `Error` saying which is what, otherwise.
 */
function createRegularFile(path: string): void {
  let fd: number;
  try {
    fd = openSync(path, CREATE_FLAGS, 0o600);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENXIO') throw new Error(notRegular('it', 'a named pipe (FIFO)'), { cause: error });
    throw error;
  }
  try {
    const type = nonRegularKind(fstatSync(fd));
    if (type !== undefined) throw new Error(notRegular('it', type));
  } finally {
    closeSync(fd);
  }
  for (const suffix of COMPANIONS) {
    let stats: Stats;
    try {
      stats = lstatSync(`${path}${suffix}`);
    } catch {
      continue; // Not there: SQLite makes it a regular file.
    }
    const type = stats.isSymbolicLink() ? 'a symbolic link' : nonRegularKind(stats);
    if (type !== undefined) throw new Error(notRegular(`${path}${suffix}`, type));
  }
}

function notRegular(what: string, type: string): string {
  return `${what} is ${type}, not a regular file (a SQLite store must be one)`;
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
    createRegularFile(options.path);
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
