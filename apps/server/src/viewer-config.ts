import { statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { isPositiveInteger } from '@agent/protocol/util';
import { configError, parsePort } from './config-values.js';

/** `viewer` of server.json / `--viewer <port>`: the live session viewer's listener and bounds. */
export interface ViewerConfig {
  port: number;
  /** Finished sessions kept in memory (default 200). */
  maxSessions?: number;
  /** Bytes of finished sessions kept in memory (default 32 MiB). */
  maxBytes?: number;
  /** Live streams open at once (default 32); one more gets 429. */
  maxStreams?: number;
  /** A live stream whose reader has not taken the last update for this long is closed (default 30). */
  stalledStreamSeconds?: number;
  /** `--evals <dir>`: the eval runs shown on the eval page (an absolute path). */
  evals?: string;
}

const BOUNDS = ['maxSessions', 'maxBytes', 'maxStreams', 'stalledStreamSeconds'] as const;
const KEYS = ['port', ...BOUNDS, 'evals'];

/**
 * `viewer` of server.json: `{ "port": 8090, "maxSessions": 200, "maxBytes": 33554432, "evals": "evals" }`
 * (`evals` relative to the file).
 */
export function parseViewerConfig(value: unknown, path: string): ViewerConfig {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw configError(
      'viewer',
      value,
      'an object { port, maxSessions?, maxBytes? }',
      `${path}: "viewer" must be an object like { "port": 8090 }`,
    );
  }
  const entry = value as Record<string, unknown>;
  for (const key of Object.keys(entry)) {
    if (!KEYS.includes(key)) {
      throw configError(
        `viewer.${key}`,
        undefined,
        `one of ${KEYS.join(', ')}`,
        `${path}: unknown key "viewer.${key}" (allowed: ${KEYS.join(', ')})`,
      );
    }
  }
  const config: ViewerConfig = { port: parsePort(entry.port, `${path}: "viewer.port"`) };
  if (entry.evals !== undefined) {
    if (typeof entry.evals !== 'string' || entry.evals === '') {
      throw configError(
        'viewer.evals',
        entry.evals,
        'a directory path',
        `${path}: "viewer.evals" must be the path of a directory of eval runs, not ${JSON.stringify(entry.evals)}`,
      );
    }
    config.evals = resolve(dirname(resolve(path)), entry.evals);
  }
  for (const key of BOUNDS) {
    const bound = entry[key];
    if (bound === undefined) continue;
    if (!isPositiveInteger(bound)) {
      throw configError(
        `viewer.${key}`,
        bound,
        'a positive integer',
        `${path}: "viewer.${key}" must be a positive integer, not ${JSON.stringify(bound)}`,
      );
    }
    config[key] = bound;
  }
  return config;
}

/** `--evals <dir>` / `viewer.evals` must be a directory now: a typo shows at start, not on the page. */
export function checkEvalsDir(dir: string): void {
  const stats = statSync(dir, { throwIfNoEntry: false });
  if (stats?.isDirectory()) return;
  throw configError(
    '--evals',
    dir,
    'a directory of eval runs (the --out directory of agent eval)',
    `--evals: ${dir} is ${stats === undefined ? 'missing' : 'not a directory'}: give the directory agent eval --out wrote its runs to`,
  );
}
