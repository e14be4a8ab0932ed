import { randomBytes } from 'node:crypto';
import { mkdir, open } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { ConfigError } from '@agent/protocol';
import { nonRegularKind } from '@agent/protocol/util';
import { SessionStoreError } from '../errors.js';
import type { SnapshotKeys } from './snapshot-seal.js';
import { defaultSessionsPath } from './state-path.js';

/** The environment variable of the current snapshot key (overrides the key file, not the config). */
export const SNAPSHOT_KEY_ENV = 'AGENT_SNAPSHOT_KEY';
/** Earlier keys, comma-separated: snapshots sealed with them still read. */
export const PREVIOUS_SNAPSHOT_KEYS_ENV = 'AGENT_SNAPSHOT_PREVIOUS_KEYS';
/** The key file's name, beside the SQLite store (or in the state directory for Redis). */
export const SNAPSHOT_KEY_FILE = 'snapshot.key';
/** The generated key of a store without a directory of its own (Redis): in the state directory. */
export function stateSnapshotKeyFile(env?: Record<string, string | undefined>): string {
  return join(dirname(defaultSessionsPath(env)), SNAPSHOT_KEY_FILE);
}

/** The shortest key taken: 32 characters (the generated ones are 43, 32 random bytes). */
export const MIN_SNAPSHOT_KEY_LENGTH = 32;
const MAX_KEY_FILE_BYTES = 4096;

/** Snapshot keys a config names (`sessions.snapshotKey`, `sessions.previousSnapshotKeys`). */
export interface SnapshotKeySettings {
  snapshotKey?: string;
  previousSnapshotKeys?: readonly string[];
  /** How messages name where `snapshotKey` was set (default `sessions.snapshotKey`). */
  source?: string;
}

/**
 * The keys a store seals with: the config's, else `AGENT_SNAPSHOT_KEY`, else the key file
 * (made with 32 random bytes, mode 0600, when missing, so a store is sealed by default).
 * Previous keys: the config's, else `AGENT_SNAPSHOT_PREVIOUS_KEYS`.
 */
export async function resolveSnapshotKeys(
  settings: SnapshotKeySettings,
  env: Record<string, string | undefined>,
  keyFile: string,
): Promise<SnapshotKeys> {
  const fromEnv = env[SNAPSHOT_KEY_ENV];
  const hasEnv = fromEnv !== undefined && fromEnv !== '';
  const current = settings.snapshotKey ?? (hasEnv ? fromEnv : await readOrCreateKey(keyFile));
  const source =
    settings.snapshotKey !== undefined
      ? (settings.source ?? 'sessions.snapshotKey')
      : hasEnv
        ? SNAPSHOT_KEY_ENV
        : `the key file ${keyFile}`;
  const previous =
    settings.previousSnapshotKeys ??
    (env[PREVIOUS_SNAPSHOT_KEYS_ENV] ?? '')
      .split(',')
      .map((key) => key.trim())
      .filter((key) => key !== '');
  const keys = { current, previous, source };
  checkSnapshotKeys(keys);
  return keys;
}

/** A store's keys: the ones it was given (checked), else those of the environment or `keyFile`. */
export function storeKeys(
  given: SnapshotKeys | undefined,
  env: Record<string, string | undefined> | undefined,
  keyFile: string,
): Promise<SnapshotKeys> {
  if (given === undefined) return resolveSnapshotKeys({}, env ?? process.env, keyFile);
  checkSnapshotKeys(given);
  return Promise.resolve(given);
}

/** Throws a `ConfigError` (the key never quoted) for a key too short to be one. */
export function checkSnapshotKeys(keys: SnapshotKeys): void {
  const all = [
    ['snapshotKey', keys.current],
    ...(keys.previous ?? []).map((k, i) => [`previousSnapshotKeys[${i}]`, k]),
  ];
  for (const [field, key] of all) {
    if (typeof key !== 'string' || key.length < MIN_SNAPSHOT_KEY_LENGTH) {
      throw new ConfigError({
        field: field!,
        allowed: `a string of at least ${MIN_SNAPSHOT_KEY_LENGTH} characters`,
        message: `${field}: a snapshot key must be a string of at least ${MIN_SNAPSHOT_KEY_LENGTH} characters (for example \`openssl rand -base64 32\`)`,
      });
    }
  }
}

/** The key in `path`, or a new one written there first (`wx`: two processes starting at once agree). */
async function readOrCreateKey(path: string): Promise<string> {
  try {
    return await readKeyFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw keyFileError(path, error);
  }
  try {
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    const handle = await open(path, 'wx', 0o600);
    try {
      await handle.writeFile(`${randomBytes(32).toString('base64url')}\n`);
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw keyFileError(path, error);
  }
  try {
    return await readKeyFile(path);
  } catch (error) {
    throw keyFileError(path, error);
  }
}

async function readKeyFile(path: string): Promise<string> {
  const handle = await open(path, 'r');
  try {
    const stats = await handle.stat();
    const kind = nonRegularKind(stats);
    if (kind !== undefined) throw new Error(`it is ${kind}, not a regular file`);
    if (stats.size > MAX_KEY_FILE_BYTES) throw new Error(`it is over ${MAX_KEY_FILE_BYTES} bytes`);
    const key = (await handle.readFile('utf8')).trim();
    if (key.length < MIN_SNAPSHOT_KEY_LENGTH)
      throw new Error(`its key is under ${MIN_SNAPSHOT_KEY_LENGTH} characters`);
    return key;
  } finally {
    await handle.close();
  }
}

function keyFileError(path: string, error: unknown): SessionStoreError {
  return new SessionStoreError(
    `the snapshot key file ${path} cannot be used: ${(error as Error).message}; set ${SNAPSHOT_KEY_ENV} or sessions.snapshotKey, or remove the file to have a new key made (sessions sealed with the old one then no longer read)`,
    { cause: error },
  );
}
