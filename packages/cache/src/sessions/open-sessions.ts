import { dirname, join } from 'node:path';
import { ConfigError } from '@agent/protocol';
import { isRecord } from '@agent/protocol/util';
import { isRedisUrl, REDIS_URL_ALLOWED, redactRedisUrl } from '../redis-url.js';
import { parseTtl } from '../ttl.js';
import { openRedisSessionStore } from './redis-sessions.js';
import type { SealingSessionStore } from './seal-unsealed.js';
import { DEFAULT_SESSION_TTL_MS } from './session-records.js';
import {
  MIN_SNAPSHOT_KEY_LENGTH,
  resolveSnapshotKeys,
  SNAPSHOT_KEY_FILE,
  stateSnapshotKeyFile,
} from './snapshot-keys.js';
import { openSqliteSessionStore } from './sqlite-sessions.js';
import { defaultSessionsPath } from './state-path.js';

/** The session stores `openSessionStore` knows. */
export const SESSION_STORES = ['sqlite', 'redis'] as const;

export { defaultSessionsPath, SESSIONS_FILE_NAME } from './state-path.js';

/** `agent.json`'s `sessions`: where snapshots are kept and how long finished ones live. */
export interface SessionStoreConfig {
  /** Default `sqlite`. */
  store?: (typeof SESSION_STORES)[number];
  /** sqlite: the database file (default `defaultSessionsPath()`). */
  path?: string;
  /** redis: `redis://[:password@]host[:port][/db]`, `rediss://...`, or a cluster's `redis+cluster://...`. */
  url?: string;
  /** How long a finished session is kept: ms or `30m`, `12h`, `7d` (default 7d). */
  ttl?: number | string;
  /**
   * The key stored snapshots are sealed with (HMAC-SHA-256), at least 32 characters; default
   * `AGENT_SNAPSHOT_KEY`, else a key file made beside the store (docs/security.md).
   */
  snapshotKey?: string;
  /** Earlier keys: snapshots sealed with them still read (default `AGENT_SNAPSHOT_PREVIOUS_KEYS`). */
  previousSnapshotKeys?: string[];
}

const KEYS = ['store', 'path', 'url', 'ttl', 'snapshotKey', 'previousSnapshotKeys'];

/** The problems of a `sessions` config, each a `ConfigError` naming the field (a URL's password never quoted). */
export function sessionStoreConfigProblems(config: unknown, source = 'sessions'): ConfigError[] {
  if (!isRecord(config)) {
    return [
      new ConfigError({
        field: 'sessions',
        value: config,
        allowed: 'an object { store, path | url, ttl, snapshotKey, previousSnapshotKeys }',
        source,
      }),
    ];
  }
  const problems: ConfigError[] = [];
  for (const key of Object.keys(config)) {
    if (!KEYS.includes(key))
      problems.push(new ConfigError({ field: key, allowed: `one of ${KEYS.join(', ')}`, source }));
  }
  const store = config.store ?? 'sqlite';
  if (!SESSION_STORES.includes(store as never)) {
    problems.push(
      new ConfigError({
        field: 'store',
        value: store,
        allowed: `one of ${SESSION_STORES.join(', ')}`,
        source,
      }),
    );
    return problems;
  }
  problems.push(
    ...(store === 'redis' ? redisStoreProblems(config, source) : sqliteStoreProblems(config, source)),
  );
  problems.push(...snapshotKeyProblems(config, source));
  if (config.ttl !== undefined && !ttlIsOn(config.ttl)) {
    problems.push(
      new ConfigError({
        field: 'ttl',
        value: config.ttl,
        allowed: 'a duration such as 30m, 12h, 7d (not off), or milliseconds',
        source,
      }),
    );
  }
  return problems;
}

/** `snapshotKey` and `previousSnapshotKeys`: strings of at least 32 characters (never quoted: secrets). */
function snapshotKeyProblems(config: Record<string, unknown>, source: string): ConfigError[] {
  const allowed = `a string of at least ${MIN_SNAPSHOT_KEY_LENGTH} characters`;
  const isKey = (key: unknown) => typeof key === 'string' && key.length >= MIN_SNAPSHOT_KEY_LENGTH;
  const problems: ConfigError[] = [];
  if (config.snapshotKey !== undefined && !isKey(config.snapshotKey))
    problems.push(new ConfigError({ field: 'snapshotKey', allowed, source }));
  const previous = config.previousSnapshotKeys;
  if (previous !== undefined && !(Array.isArray(previous) && previous.every(isKey)))
    problems.push(
      new ConfigError({ field: 'previousSnapshotKeys', allowed: `a list of ${allowed}`, source }),
    );
  return problems;
}

/** The redis store: a Redis `url` (one server or a cluster), no `path`. */
function redisStoreProblems(config: Record<string, unknown>, source: string): ConfigError[] {
  const problems: ConfigError[] = [];
  if (typeof config.url !== 'string' || !isRedisUrl(config.url)) {
    problems.push(
      new ConfigError({
        field: 'url',
        value: shownUrl(config.url),
        allowed: REDIS_URL_ALLOWED,
        source,
      }),
    );
  }
  if (config.path !== undefined) {
    problems.push(
      new ConfigError({
        field: 'path',
        value: config.path,
        allowed: 'absent: `path` is for the sqlite store',
        source,
      }),
    );
  }
  return problems;
}

/** The sqlite store: no `url`, and a `path` (when given) that is a file path. */
function sqliteStoreProblems(config: Record<string, unknown>, source: string): ConfigError[] {
  const problems: ConfigError[] = [];
  if (config.url !== undefined) {
    problems.push(
      new ConfigError({
        field: 'url',
        value: shownUrl(config.url),
        allowed: 'absent: `url` is for the redis store',
        source,
      }),
    );
  }
  if (config.path !== undefined && (typeof config.path !== 'string' || config.path === '')) {
    problems.push(new ConfigError({ field: 'path', value: config.path, allowed: 'a file path', source }));
  }
  return problems;
}

/** A `url` as a message may quote it: a string with its password redacted, anything else as it is. */
function shownUrl(url: unknown): unknown {
  return typeof url === 'string' ? redactRedisUrl(url) : url;
}

/** A TTL that parses and is not `off`. */
function ttlIsOn(ttl: unknown): boolean {
  try {
    return parseTtl(ttl, 'ttl') !== 0;
  } catch {
    return false;
  }
}

/**
 * Opens the store a `sessions` config names: SQLite by default (`path` or
 * `defaultSessionsPath(env)`), Redis (`url`). Throws `ConfigError` for a config that cannot work
 * and `SessionStoreError` when the store cannot be opened or reached.
 */
export async function openSessionStore(
  config: SessionStoreConfig = {},
  options: { env?: Record<string, string | undefined>; now?: () => number } = {},
): Promise<SealingSessionStore> {
  const problems = sessionStoreConfigProblems(config);
  if (problems.length > 0) throw ConfigError.of(problems, 'sessions');
  const ttlMs = config.ttl === undefined ? DEFAULT_SESSION_TTL_MS : parseTtl(config.ttl, 'ttl');
  const path = config.path ?? defaultSessionsPath(options.env);
  // Redis keeps no files: its generated key lives in the state directory.
  const keyFile =
    config.store === 'redis' ? stateSnapshotKeyFile(options.env) : join(dirname(path), SNAPSHOT_KEY_FILE);
  const snapshotKeys = await resolveSnapshotKeys(config, options.env ?? process.env, keyFile);
  if (config.store === 'redis') return openRedisSessionStore({ url: config.url!, ttlMs, snapshotKeys });
  return openSqliteSessionStore({
    path,
    ttlMs,
    snapshotKeys,
    ...(options.now === undefined ? {} : { now: options.now }),
  });
}
