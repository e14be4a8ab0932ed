import type { SlackRoute } from '@agent/headends';
import { configError, parsePort } from './config-values.js';

/** `slack: {...}` in server.json (and `--slack`, `--slack-port`). Secrets default to the environment. */
export interface SlackServerConfig {
  /** Port for slash commands over HTTP (`POST /slack/commands`); none: Socket Mode only. */
  port?: number;
  botToken?: string;
  appToken?: string;
  signingSecret?: string;
  apiUrl?: string;
  routes?: SlackRoute[];
  defaultAgent?: string;
  historyMessages?: number;
  historyChars?: number;
  updateIntervalMs?: number;
  pingTimeoutMs?: number;
  signatureWindowSeconds?: number;
  bodyLimitBytes?: number;
}

const STRING_KEYS = ['botToken', 'appToken', 'signingSecret', 'apiUrl', 'defaultAgent'] as const;
// Every numeric option of the Slack headend (docs/headends.md, "Slack"); `concurrency` and
// `queueSize` are the server's own.
const COUNT_KEYS = [
  'historyMessages',
  'historyChars',
  'updateIntervalMs',
  'pingTimeoutMs',
  'signatureWindowSeconds',
  'bodyLimitBytes',
] as const;
const ROUTE_KEYS = new Set(['channels', 'engage', 'agent', 'deny']);
const KEYS = new Set<string>(['port', 'routes', ...STRING_KEYS, ...COUNT_KEYS]);

const isStrings = (value: unknown) => Array.isArray(value) && value.every((item) => typeof item === 'string');

function parseRoute(raw: unknown, at: string): SlackRoute {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw configError(at, raw, 'an object', `${at} must be an object { channels?, engage?, agent?, deny? }`);
  }
  const route = raw as Record<string, unknown>;
  for (const key of Object.keys(route)) {
    if (!ROUTE_KEYS.has(key)) {
      throw configError(
        `${at}.${key}`,
        undefined,
        [...ROUTE_KEYS].join(', '),
        `${at}: unknown key "${key}" (allowed: ${[...ROUTE_KEYS].join(', ')})`,
      );
    }
  }
  for (const key of ['channels', 'engage'] as const) {
    if (route[key] !== undefined && !isStrings(route[key])) {
      throw configError(
        `${at}.${key}`,
        route[key],
        'an array of strings',
        `${at}.${key} must be an array of strings`,
      );
    }
  }
  if (route.agent !== undefined && typeof route.agent !== 'string') {
    throw configError(`${at}.agent`, route.agent, 'an agent name', `${at}.agent must be an agent name`);
  }
  if (route.deny !== undefined && typeof route.deny !== 'boolean') {
    throw configError(`${at}.deny`, route.deny, 'true or false', `${at}.deny must be true or false`);
  }
  return route as SlackRoute;
}

/** Checks the `slack` object of server.json; the headend checks agents and engagements. */
export function parseSlackConfig(raw: unknown, where: string): SlackServerConfig {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw configError('slack', undefined, 'an object', `${where}: "slack" must be an object`);
  }
  const file = raw as Record<string, unknown>;
  for (const key of Object.keys(file)) {
    if (!KEYS.has(key)) {
      throw configError(
        `slack.${key}`,
        undefined,
        [...KEYS].join(', '),
        `${where}: unknown key "slack.${key}" (allowed: ${[...KEYS].join(', ')})`,
      );
    }
  }
  const config: SlackServerConfig = {};
  if (file.port !== undefined) config.port = parsePort(file.port, `${where}: "slack.port"`);
  for (const key of STRING_KEYS) {
    if (file[key] === undefined) continue;
    if (typeof file[key] !== 'string') {
      // The value may be a secret: never echo it.
      throw configError(`slack.${key}`, undefined, 'a string', `${where}: "slack.${key}" must be a string`);
    }
    config[key] = file[key] as string;
  }
  for (const key of COUNT_KEYS) {
    if (file[key] === undefined) continue;
    if (!Number.isInteger(file[key]) || (file[key] as number) < 0) {
      throw configError(
        `slack.${key}`,
        file[key],
        'a non-negative integer',
        `${where}: "slack.${key}" must be a non-negative integer`,
      );
    }
    config[key] = file[key] as number;
  }
  if (file.routes !== undefined) {
    if (!Array.isArray(file.routes)) {
      throw configError(
        'slack.routes',
        undefined,
        'an array of rules',
        `${where}: "slack.routes" must be an array of rules`,
      );
    }
    config.routes = file.routes.map((route, index) => parseRoute(route, `${where}: slack.routes[${index}]`));
  }
  return config;
}
