import { dirname, resolve } from 'node:path';
import type { SlackEngagement, SlackRoute } from '@agent/headends';
import { aiAgentConfigSection } from '@agent/runtime';
import { configError } from './config-values.js';
import type { ServerConfig } from './server-config.js';
import { parseSlackConfig, type SlackServerConfig } from './slack-config.js';

// ai-agent's `slack` section of `.ai-agent.json`, as this project's Slack headend settings
// (docs/migrating-from-ai-agent.md has the table). Its routes name agent files; they are served
// too, and `nameRouteAgents` turns each file into the name the served agent has.

/** The Slack settings read from an `.ai-agent.json`. */
export interface AiAgentSlack {
  /** Routes and `defaultAgent` name agent files (absolute) until `nameRouteAgents`. */
  slack: SlackServerConfig;
  /** `enabled: true`: the headend starts without `--slack`. */
  enabled: boolean;
  /** The agent files the routing names (served beside `--agent`). */
  agentFiles: string[];
  /** What is ignored, for the server's log. */
  notes: string[];
}

const KEYS = [
  'enabled',
  'botToken',
  'appToken',
  'signingSecret',
  'historyLimit',
  'historyCharsCap',
  'updateIntervalMs',
  'mentions',
  'dms',
  'openerTone',
  'routing',
  // This project's own keys pass through as they are.
  'apiUrl',
  'historyMessages',
  'historyChars',
];
const RULE_KEYS = ['enabled', 'channels', 'agent', 'engage', 'promptTemplates', 'contextPolicy'];
const ENGAGE: Record<string, SlackEngagement> = {
  mentions: 'mentions',
  'channel-posts': 'channel-posts',
  'direct-messages': 'dms',
  dms: 'dms',
};

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The `slack` section of the highest `.ai-agent.json` layer (ai-agent's places for the first
 * agent file's directory), mapped; undefined when none has one. Throws a `ConfigError` naming
 * the field for what cannot be honoured.
 */
export function readAiAgentSlack(
  options: { cwd?: string; env: Record<string, string | undefined>; configPath?: string },
  agentDir: string | undefined,
  /** `--slack` / `--slack-port` was given: the section is used even without `enabled: true`. */
  asked: boolean,
): AiAgentSlack | undefined {
  const found = aiAgentConfigSection('slack', options, agentDir);
  if (found === undefined) return undefined;
  // Unused (not asked for, not enabled): its values need not be usable.
  const enabled = isObject(found.value) && found.value.enabled === true;
  if (!asked && !enabled) return undefined;
  if (found.unusable !== undefined)
    throw configError('slack', undefined, 'a value for every variable', found.unusable);
  const where = found.file;
  const at = (field: string) => `${where}: slack.${field}`;
  if (!isObject(found.value))
    throw configError('slack', undefined, 'an object', `${at('')} must be an object`);
  const raw = found.value;
  for (const key of Object.keys(raw))
    if (!KEYS.includes(key))
      throw configError(
        `slack.${key}`,
        undefined,
        KEYS.join(', '),
        `${where}: unknown key "slack.${key}" (allowed: ${KEYS.join(', ')})`,
      );
  const notes: string[] = [];
  const base = dirname(found.path);
  const agentFiles: string[] = [];
  const file = (value: unknown, field: string): string => {
    if (typeof value !== 'string' || value === '')
      throw configError(
        `slack.${field}`,
        value,
        'an agent file path',
        `${at(field)} must be an agent file path`,
      );
    const path = resolve(base, value);
    if (!agentFiles.includes(path)) agentFiles.push(path);
    return path;
  };
  const routes = routing(raw.routing, file, at, notes);
  for (const [key, engagement] of [
    ['mentions', 'mentions'],
    ['dms', 'dms'],
  ] as const)
    if (raw[key] === false) routes.unshift({ engage: [engagement], deny: true });
  if (raw.openerTone !== undefined)
    notes.push('`slack.openerTone` is ignored: progress messages have one wording here');
  const ours: Json = {
    ...pick(raw, ['botToken', 'appToken', 'signingSecret', 'updateIntervalMs', 'apiUrl']),
    ...(raw.historyLimit === undefined ? {} : { historyMessages: raw.historyLimit }),
    ...(raw.historyCharsCap === undefined ? {} : { historyChars: raw.historyCharsCap }),
    ...pick(raw, ['historyMessages', 'historyChars']),
  };
  const slack = parseSlackConfig(ours, where);
  if (routes.length > 0) slack.routes = routes;
  return { slack, enabled, agentFiles, notes };
}

/** `routing: { deny, rules, default }` as routes, first match wins: deny rules, rules, then the default. */
function routing(
  value: unknown,
  file: (value: unknown, field: string) => string,
  at: (field: string) => string,
  notes: string[],
): SlackRoute[] {
  if (value === undefined) return [];
  if (!isObject(value))
    throw configError(
      'slack.routing',
      undefined,
      'an object { default?, rules?, deny? }',
      `${at('routing')} must be an object { default?, rules?, deny? }`,
    );
  const routes: SlackRoute[] = [];
  const list = (key: string): unknown[] => {
    const items = value[key] ?? [];
    if (!Array.isArray(items))
      throw configError(
        `slack.routing.${key}`,
        undefined,
        'a list',
        `${at(`routing.${key}`)} must be a list`,
      );
    return items;
  };
  for (const [index, rule] of list('deny').entries())
    routes.push({ ...route(rule, `routing.deny[${index}]`, undefined, at, notes), deny: true });
  for (const [index, rule] of list('rules').entries()) {
    if (isObject(rule) && rule.enabled === false) continue;
    routes.push(route(rule, `routing.rules[${index}]`, file, at, notes));
  }
  if (value.default !== undefined) {
    const { channels: _all, ...fallback } = route(value.default, 'routing.default', file, at, notes);
    routes.push(fallback);
  }
  for (const key of Object.keys(value))
    if (!['default', 'rules', 'deny'].includes(key))
      throw configError(
        `slack.routing.${key}`,
        undefined,
        'default, rules, deny',
        `${at(`routing.${key}`)}: unknown key (allowed: default, rules, deny)`,
      );
  return routes;
}

function route(
  value: unknown,
  field: string,
  file: ((value: unknown, field: string) => string) | undefined,
  at: (field: string) => string,
  notes: string[],
): SlackRoute {
  if (!isObject(value))
    throw configError(`slack.${field}`, undefined, 'an object', `${at(field)} must be an object`);
  for (const key of Object.keys(value)) {
    if (!RULE_KEYS.includes(key))
      throw configError(
        `slack.${field}.${key}`,
        undefined,
        RULE_KEYS.join(', '),
        `${at(`${field}.${key}`)}: unknown key (allowed: ${RULE_KEYS.join(', ')})`,
      );
  }
  for (const key of ['promptTemplates', 'contextPolicy'])
    if (value[key] !== undefined)
      throw configError(
        `slack.${field}.${key}`,
        undefined,
        'nothing',
        `${at(`${field}.${key}`)} is not supported: this Slack headend gives the agent the message and its thread as they are; put the instructions in the agent file`,
      );
  const out: SlackRoute = {};
  if (value.channels !== undefined) {
    if (!Array.isArray(value.channels) || !value.channels.every((c) => typeof c === 'string'))
      throw configError(
        `slack.${field}.channels`,
        undefined,
        'a list of channel names, IDs or globs',
        `${at(`${field}.channels`)} must be a list of channel names, IDs or globs`,
      );
    out.channels = value.channels;
  }
  if (value.engage !== undefined) out.engage = engagements(value.engage, field, at, notes);
  if (file !== undefined) out.agent = file(value.agent, `${field}.agent`);
  return out;
}

function engagements(
  value: unknown,
  field: string,
  at: (field: string) => string,
  notes: string[],
): SlackEngagement[] {
  const allowed = [...Object.keys(ENGAGE), 'threads'];
  if (!Array.isArray(value))
    throw configError(
      `slack.${field}.engage`,
      undefined,
      `a list of ${allowed.join(', ')}`,
      `${at(`${field}.engage`)} must be a list of ${allowed.join(', ')}`,
    );
  const out: SlackEngagement[] = [];
  for (const item of value) {
    if (item === 'threads') {
      notes.push(
        `\`slack.${field}.engage: threads\` is ignored: a reply in a thread is a channel post (channel-posts) here`,
      );
      continue;
    }
    const engagement = typeof item === 'string' ? ENGAGE[item] : undefined;
    if (engagement === undefined)
      throw configError(
        `slack.${field}.engage`,
        item,
        allowed.join(', '),
        `${at(`${field}.engage`)} has ${JSON.stringify(item)}; allowed: ${allowed.join(', ')}`,
      );
    if (!out.includes(engagement)) out.push(engagement);
  }
  return out;
}

function pick(value: Json, keys: readonly string[]): Json {
  return Object.fromEntries(keys.filter((key) => value[key] !== undefined).map((key) => [key, value[key]]));
}

/** The routes' agent files as the names of the served agents (`files[i]` is served as `names[i]`). */
export function nameRouteAgents(
  slack: SlackServerConfig,
  files: readonly string[],
  names: readonly string[],
): SlackServerConfig {
  const nameOf = (path: string): string => {
    const index = files.findIndex((file) => resolve(file) === path);
    return index === -1 ? path : names[index]!;
  };
  return {
    ...slack,
    ...(slack.routes === undefined
      ? {}
      : { routes: slack.routes.map((r) => (r.agent === undefined ? r : { ...r, agent: nameOf(r.agent) })) }),
  };
}

/**
 * Without a `slack` section in server.json: ai-agent's, from the `.ai-agent.json` layers, when
 * `--slack` / `--slack-port` asks for the headend or the section says `enabled: true`. The
 * files its routing names are served too.
 */
export function applyAiAgentSlack(
  config: ServerConfig,
  asked: boolean,
  port: number | undefined,
  env: Record<string, string | undefined>,
): void {
  const first = config.agents[0];
  const found = readAiAgentSlack(
    { env, ...(config.agentConfig === undefined ? {} : { configPath: config.agentConfig }) },
    first === undefined ? undefined : dirname(resolve(first)),
    asked,
  );
  if (found === undefined) return;
  config.slack = { ...found.slack, ...(port === undefined ? {} : { port }) };
  for (const file of found.agentFiles)
    if (!config.agents.some((agent) => resolve(agent) === file)) config.agents.push(file);
  config.slackAgentFiles = found.agentFiles;
  config.slackNotes = found.notes;
}
