import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { ConfigError, type SessionStore } from '@agent/protocol';
import { isRecord } from '@agent/protocol/util';
import { isRedisUrl, redactRedisUrl } from '../redis-url.js';
import { parseTtl } from '../ttl.js';
import { openRedisSessionStore } from './redis-sessions.js';
import { DEFAULT_SESSION_TTL_MS } from './session-records.js';
import { openSqliteSessionStore } from './sqlite-sessions.js';

/** The session stores `openSessionStore` knows. */
export const SESSION_STORES = ['sqlite', 'redis'] as const;

/** Name of the SQLite file in the user's state directory. */
export const SESSIONS_FILE_NAME = 'sessions.sqlite';

/** `agent.json`'s `sessions`: where snapshots are kept and how long finished ones live. */
export interface SessionStoreConfig {
  /** Default `sqlite`. */
  store?: (typeof SESSION_STORES)[number];
  /** sqlite: the database file (default `defaultSessionsPath()`). */
  path?: string;
  /** redis: `redis://[:password@]host[:port][/db]` or `rediss://...`. */
  url?: string;
  /** How long a finished session is kept: ms or `30m`, `12h`, `7d` (default 7d). */
  ttl?: number | string;
}

/**
 * `$XDG_STATE_HOME/agent/sessions.sqlite`, else `~/.local/state/agent/sessions.sqlite`: state
 * that outlives a process but is not configuration.
 */
export function defaultSessionsPath(env: Record<string, string | undefined> = process.env): string {
  const xdg = env.XDG_STATE_HOME;
  const base = xdg !== undefined && xdg !== '' && isAbsolute(xdg) ? xdg : join(homedir(), '.local', 'state');
  return join(base, 'agent', SESSIONS_FILE_NAME);
}

const KEYS = ['store', 'path', 'url', 'ttl'];

/** The problems of a `sessions` config, each a `ConfigError` naming the field (a URL's password never quoted). */
export function sessionStoreConfigProblems(config: unknown, source = 'sessions'): ConfigError[] {
  if (!isRecord(config)) {
    return [
      new ConfigError({
        field: 'sessions',
        value: config,
        allowed: 'an object { store, path | url, ttl }',
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

/** The redis store: a redis:// or rediss:// `url`, no `path`. */
function redisStoreProblems(config: Record<string, unknown>, source: string): ConfigError[] {
  const problems: ConfigError[] = [];
  if (typeof config.url !== 'string' || !isRedisUrl(config.url)) {
    problems.push(
      new ConfigError({
        field: 'url',
        value: shownUrl(config.url),
        allowed: 'a redis:// or rediss:// URL with a host',
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
): Promise<SessionStore> {
  const problems = sessionStoreConfigProblems(config);
  if (problems.length > 0) throw ConfigError.of(problems, 'sessions');
  const ttlMs = config.ttl === undefined ? DEFAULT_SESSION_TTL_MS : parseTtl(config.ttl, 'ttl');
  if (config.store === 'redis') return openRedisSessionStore({ url: config.url!, ttlMs });
  return openSqliteSessionStore({
    path: config.path ?? defaultSessionsPath(options.env),
    ttlMs,
    ...(options.now === undefined ? {} : { now: options.now }),
  });
}
