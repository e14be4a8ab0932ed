import { ConfigError, type SessionSnapshot } from '@agent/protocol';
import { isRecord, isStoreId, STORE_ID_ALLOWED } from '@agent/protocol/util';
import { SessionStoreError, SnapshotIntegrityError } from '../errors.js';
import { type SnapshotKeys, sealSnapshot, unsealSnapshot } from './snapshot-seal.js';

/** A finished session is kept this long unless `ttl` says otherwise: a week. */
export const DEFAULT_SESSION_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** An unfinished session (paused, or left by a crash) is kept at least this long: 30 days. */
export const UNFINISHED_SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/** The largest snapshot a store takes: 32 MiB of JSON. */
export const MAX_SNAPSHOT_BYTES = 32 * 1024 * 1024;

export const SESSION_ID_ALLOWED = STORE_ID_ALLOWED;

/** Throws a `ConfigError` for an id no session can have (it is also part of a key or a query). */
export function checkSessionId(id: unknown): string {
  if (isStoreId(id)) return id;
  throw new ConfigError({
    field: 'sessionId',
    value: id,
    allowed: SESSION_ID_ALLOWED,
    message: `${JSON.stringify(id)} is not a session id (${SESSION_ID_ALLOWED})`,
  });
}

/** Milliseconds the snapshot is kept from now. */
export function keepFor(snapshot: SessionSnapshot, ttlMs: number): number {
  return snapshot.status === 'finished' ? ttlMs : Math.max(ttlMs, UNFINISHED_SESSION_TTL_MS);
}

/**
 * The snapshot as stored: its JSON sealed with the current key (`sealSnapshot`); a snapshot
 * over the bound is refused before anything is written.
 */
export function encodeSnapshot(snapshot: SessionSnapshot, where: string, keys: SnapshotKeys): string {
  checkSessionId(snapshot.sessionId);
  const text = JSON.stringify(snapshot);
  const bytes = Buffer.byteLength(text);
  if (bytes > MAX_SNAPSHOT_BYTES) {
    throw new SessionStoreError(
      `${where}: the snapshot of session ${snapshot.sessionId} is ${bytes} bytes, over the ${MAX_SNAPSHOT_BYTES}-byte bound; it was not stored (the earlier one is kept)`,
    );
  }
  return sealSnapshot(text, keys);
}

/** Why a sealed text whose tag matches no key is refused (snapshots and journal entries). */
export function badTagReason(keys: SnapshotKeys): string {
  const count = 1 + (keys.previous?.length ?? 0);
  return `its tag matches none of the ${count} snapshot key${count === 1 ? '' : 's'} configured (it was changed outside this program, or sealed with a key that is no longer configured: list that key in previousSnapshotKeys)`;
}

/** The command that seals a trusted store's snapshots written before tags (docs/sessions.md). */
export const SEAL_COMMAND = 'agent sessions seal';

/**
 * A stored snapshot read back. Its tag must match a key, and a snapshot without a tag is refused
 * whatever version it claims (anyone who can write to the store could write one): both throw
 * `SnapshotIntegrityError`. Snapshots written before tags are sealed once by `SEAL_COMMAND`.
 * One that does not parse is reported, never guessed at.
 */
export function decodeSnapshot(
  stored: string,
  sessionId: string,
  where: string,
  keys: SnapshotKeys,
): SessionSnapshot {
  const unsealed = unsealSnapshot(stored, keys);
  if (unsealed.kind === 'bad-tag') {
    throw new SnapshotIntegrityError(
      `${where}: the stored snapshot of session ${sessionId} fails its integrity check: ${badTagReason(keys)}; it is not resumed`,
    );
  }
  if (unsealed.kind === 'unsealed') {
    throw new SnapshotIntegrityError(
      `${where}: the stored snapshot of session ${sessionId} has no integrity tag, so it is not resumed (the stored snapshot is left as it was). If it was written by a release before tags (version 1) and the store is trusted, seal the store's older snapshots once with \`${SEAL_COMMAND}\``,
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(unsealed.json);
  } catch (error) {
    throw new SessionStoreError(`${where}: the stored snapshot of session ${sessionId} is not valid JSON`, {
      cause: error,
    });
  }
  if (!isRecord(value) || value.sessionId !== sessionId) {
    throw new SessionStoreError(
      `${where}: the stored snapshot of session ${sessionId} is not a session snapshot`,
    );
  }
  return value as unknown as SessionSnapshot;
}
