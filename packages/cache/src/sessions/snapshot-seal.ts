import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The keys a store seals snapshots with: `current` signs every write; a snapshot sealed with
 * `current` or any of `previous` reads (rotation: move the old key to `previous`).
 */
export interface SnapshotKeys {
  current: string;
  previous?: readonly string[];
  /** Where `current` came from, as a message names it (`AGENT_SNAPSHOT_KEY`, a key file's path); never the key. */
  source?: string;
}

/** The first line of a sealed snapshot; the snapshot's JSON follows it, byte for byte as tagged. */
export const SEAL_PREFIX = 'agent-snapshot hmac-sha256=';
const TAG_LENGTH = 64;

const tagOf = (key: string, json: string) => createHmac('sha256', key).update(json, 'utf8').digest();

/** The stored form of a snapshot's JSON: a tag line (HMAC-SHA-256 with the current key), then the JSON. */
export function sealSnapshot(json: string, keys: SnapshotKeys): string {
  return `${SEAL_PREFIX}${tagOf(keys.current, json).toString('hex')}\n${json}`;
}

/** What a stored text holds: the JSON of a sealed snapshot whose tag a key matches, or why not. */
export type Unsealed =
  | { kind: 'sealed'; json: string }
  | { kind: 'unsealed'; json: string }
  | { kind: 'bad-tag' };

/** Splits a stored text and checks its tag against every key (constant time per key). */
export function unsealSnapshot(text: string, keys: SnapshotKeys): Unsealed {
  if (!text.startsWith(SEAL_PREFIX)) return { kind: 'unsealed', json: text };
  const newline = SEAL_PREFIX.length + TAG_LENGTH;
  const hex = text.slice(SEAL_PREFIX.length, newline);
  if (text[newline] !== '\n' || !/^[0-9a-f]+$/.test(hex)) return { kind: 'bad-tag' };
  const json = text.slice(newline + 1);
  const tag = Buffer.from(hex, 'hex');
  for (const key of [keys.current, ...(keys.previous ?? [])]) {
    if (timingSafeEqual(tag, tagOf(key, json))) return { kind: 'sealed', json };
  }
  return { kind: 'bad-tag' };
}
