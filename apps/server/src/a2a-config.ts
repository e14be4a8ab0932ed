import type { A2aHeadendOptions } from '@agent/headends';
import { isPositiveInteger } from '@agent/protocol/util';
import { configError, parsePort } from './config-values.js';

/** `a2a` of server.json / `--a2a <port>`: the Agent2Agent face's listener and its card (docs/a2a.md). */
export interface A2aServerConfig
  extends Pick<A2aHeadendOptions, 'publicUrl' | 'publicCard' | 'legacy' | 'maxTasks' | 'provider'> {
  port: number;
}

/** More tasks than this in memory is a typo, not a setting: each holds a task's history. */
export const A2A_MAX_TASKS_LIMIT = 1_000_000;

const KEYS = ['port', 'publicUrl', 'publicCard', 'legacy', 'maxTasks', 'provider'];
const PROVIDER_KEYS = ['organization', 'url'];

/**
 * `a2a` of server.json: `{ "port": 8094, "publicUrl": "https://agents.example.com", "publicCard":
 * true, "legacy": true, "maxTasks": 1000, "provider": { "organization": "...", "url": "..." } }`.
 */
export function parseA2aConfig(value: unknown, path: string): A2aServerConfig {
  const entry = objectOf(
    value,
    'a2a',
    path,
    'an object { port, publicUrl?, publicCard?, legacy?, maxTasks?, provider? }',
  );
  checkKeys(entry, 'a2a', KEYS, path);
  const config: A2aServerConfig = { port: parsePort(entry.port, `${path}: "a2a.port"`) };
  if (entry.publicUrl !== undefined)
    config.publicUrl = parsePublicUrl(entry.publicUrl, 'a2a.publicUrl', path);
  for (const key of ['publicCard', 'legacy'] as const) {
    if (entry[key] === undefined) continue;
    if (typeof entry[key] !== 'boolean') {
      throw configError(
        `a2a.${key}`,
        entry[key],
        'true or false',
        `${path}: "a2a.${key}" must be true or false, not ${JSON.stringify(entry[key])}`,
      );
    }
    config[key] = entry[key];
  }
  if (entry.maxTasks !== undefined) {
    if (!isPositiveInteger(entry.maxTasks) || entry.maxTasks > A2A_MAX_TASKS_LIMIT) {
      throw configError(
        'a2a.maxTasks',
        entry.maxTasks,
        `an integer 1-${A2A_MAX_TASKS_LIMIT}`,
        `${path}: "a2a.maxTasks" must be an integer from 1 to ${A2A_MAX_TASKS_LIMIT}, not ${JSON.stringify(entry.maxTasks)}`,
      );
    }
    config.maxTasks = entry.maxTasks;
  }
  if (entry.provider !== undefined) config.provider = parseProvider(entry.provider, path);
  return config;
}

function parseProvider(value: unknown, path: string): { organization: string; url: string } {
  const provider = objectOf(value, 'a2a.provider', path, 'an object { organization, url }');
  checkKeys(provider, 'a2a.provider', PROVIDER_KEYS, path);
  const { organization } = provider;
  if (typeof organization !== 'string' || organization.trim() === '' || organization.length > 200) {
    throw configError(
      'a2a.provider.organization',
      organization,
      'a name of 1-200 characters',
      `${path}: "a2a.provider.organization" must be the organization's name (1-200 characters), not ${JSON.stringify(organization)}`,
    );
  }
  return { organization, url: parsePublicUrl(provider.url, 'a2a.provider.url', path) };
}

/** An absolute http(s) URL without credentials, query or fragment; its trailing `/` dropped. */
function parsePublicUrl(value: unknown, field: string, path: string): string {
  const allowed = 'an absolute http(s) URL like https://agents.example.com';
  const url = typeof value === 'string' && URL.canParse(value) ? new URL(value) : undefined;
  const credentials = url !== undefined && (url.username !== '' || url.password !== '');
  const usable =
    url !== undefined &&
    ['http:', 'https:'].includes(url.protocol) &&
    !credentials &&
    url.search === '' &&
    url.hash === '';
  if (!usable) {
    // A URL with credentials is never echoed: it would land in the log.
    throw configError(
      field,
      credentials ? undefined : value,
      allowed,
      `${path}: "${field}" must be ${allowed} (no credentials, query or fragment), not ${credentials ? 'a URL with credentials' : JSON.stringify(value)}`,
    );
  }
  return String(value).replace(/\/+$/, '');
}

function objectOf(value: unknown, field: string, path: string, allowed: string): Record<string, unknown> {
  if (typeof value === 'object' && value !== null && !Array.isArray(value))
    return value as Record<string, unknown>;
  throw configError(
    field,
    value,
    allowed,
    `${path}: "${field}" must be ${allowed}, not ${JSON.stringify(value)}`,
  );
}

function checkKeys(
  entry: Record<string, unknown>,
  field: string,
  keys: readonly string[],
  path: string,
): void {
  for (const key of Object.keys(entry)) {
    if (keys.includes(key)) continue;
    throw configError(
      `${field}.${key}`,
      undefined,
      `one of ${keys.join(', ')}`,
      `${path}: unknown key "${field}.${key}" (allowed: ${keys.join(', ')})`,
    );
  }
}
