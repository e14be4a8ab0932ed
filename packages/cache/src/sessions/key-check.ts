import { createHmac } from 'node:crypto';
import { ConfigError } from '@agent/protocol';
import type BetterSqlite3 from 'better-sqlite3';
import { SessionStoreError } from '../errors.js';
import type { RedisClient } from '../redis-cluster.js';
import type { SnapshotKeys } from './snapshot-seal.js';

/**
 * What the check value is an HMAC of. Not JSON: a check value is never the tag of a snapshot
 * or a journal entry (both are JSON), so publishing it in the store forges nothing.
 */
const KEY_CHECK_LABEL = 'agent session store key check v1';

/** The Redis key of the check, after the store's prefix (`#` is in no session id). */
export const REDIS_KEY_CHECK_SUFFIX = '#key-check';

/** The SQLite table of the check (one row, name `key-check`). */
export const KEY_CHECK_TABLE_SQL = `CREATE TABLE IF NOT EXISTS store_meta (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL
  );
  `;

/** What a store's check said at open: written now, the same key, rewritten after a rotation, or another key. */
export type KeyCheckOutcome = 'set' | 'same' | 'rotated' | 'other';

/** Identifies a key without revealing it: HMAC-SHA-256(key, a fixed label), hex. */
export function keyCheckValue(key: string): string {
  return createHmac('sha256', key).update(KEY_CHECK_LABEL, 'utf8').digest('hex');
}

/** The check values of the current key, then of each previous one. */
function checkValues(keys: SnapshotKeys): string[] {
  return [keys.current, ...(keys.previous ?? [])].map(keyCheckValue);
}

/**
 * Sets the check when missing (first writer wins), keeps it when it is the current key's,
 * rewrites it when it is a previous key's; says which. One script: one round trip, atomic.
 */
const REDIS_KEY_CHECK = `
local stored = redis.call('GET', KEYS[1])
if not stored then redis.call('SET', KEYS[1], ARGV[1]) return 'set' end
if stored == ARGV[1] then return 'same' end
for i = 2, #ARGV do
  if stored == ARGV[i] then redis.call('SET', KEYS[1], ARGV[1]) return 'rotated' end
end
return 'other'
`;

/**
 * Runs the check of a Redis store (under `prefix`); a foreign key throws `keyMismatchError`.
 * `run` reports a failed command as the store does.
 */
export async function checkRedisStoreKey(
  client: RedisClient,
  store: { prefix: string; where: string; keys: SnapshotKeys },
  run: <T>(what: string, command: () => Promise<T>) => Promise<T>,
): Promise<KeyCheckOutcome> {
  const { prefix, where, keys } = store;
  const name = prefix + REDIS_KEY_CHECK_SUFFIX;
  const outcome = (await run('checking the snapshot key', () =>
    client.eval(REDIS_KEY_CHECK, 1, name, ...checkValues(keys)),
  )) as KeyCheckOutcome;
  if (outcome === 'other') throw keyMismatchError(where, keys, `delete the Redis key ${name}`);
  return outcome;
}

/** The same check in a SQLite store's `store_meta` table, in one immediate transaction. */
export function checkSqliteStoreKey(
  db: BetterSqlite3.Database,
  where: string,
  keys: SnapshotKeys,
): KeyCheckOutcome {
  const [current, ...previous] = checkValues(keys);
  let outcome: KeyCheckOutcome;
  try {
    const read = db.prepare<[], { value: string }>("SELECT value FROM store_meta WHERE name = 'key-check'");
    const write = db.prepare<[string]>(
      "INSERT INTO store_meta (name, value) VALUES ('key-check', ?) ON CONFLICT(name) DO UPDATE SET value = excluded.value",
    );
    outcome = db
      .transaction((): KeyCheckOutcome => {
        const stored = read.get()?.value;
        if (stored === current) return 'same';
        if (stored !== undefined && !previous.includes(stored)) return 'other';
        write.run(current!);
        return stored === undefined ? 'set' : 'rotated';
      })
      .immediate();
  } catch (error) {
    throw new SessionStoreError(`${where}: checking the snapshot key: ${(error as Error).message}`, {
      cause: error,
    });
  }
  if (outcome === 'other')
    throw keyMismatchError(where, keys, "delete the row 'key-check' of its table store_meta");
  return outcome;
}

/**
 * The store was written by processes sealing with another key: every snapshot they wrote would
 * fail its integrity check here. Names where this process's key came from, never the key.
 */
function keyMismatchError(where: string, keys: SnapshotKeys, reset: string): ConfigError {
  const source = keys.source ?? 'the snapshotKeys option';
  return new ConfigError({
    field: 'snapshotKey',
    allowed: 'the key the other processes of this store seal snapshots with',
    message:
      `${where}: this process seals snapshots with another key than the processes that wrote this store (key from ${source}); ` +
      'set the same AGENT_SNAPSHOT_KEY (or sessions.snapshotKey) on every machine of the fleet, and list a replaced key in previousSnapshotKeys ' +
      `(to give up the sessions sealed with the other key instead, ${reset})`,
  });
}
