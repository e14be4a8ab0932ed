import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { errorMessage } from '@agent/protocol/util';
import { checkQueueUrl } from '@agent/queue/options';
import { type A2aServerConfig, parseA2aConfig } from './a2a-config.js';
import { parseAllowedHosts } from './allowed-hosts.js';
import { configError, parsePort } from './config-values.js';
import { LIMIT_OPTIONS, limitProblem, type ServerLimits } from './server-limits.js';
import { parseSlackConfig, type SlackServerConfig } from './slack-config.js';
import { parseViewerConfig, type ViewerConfig } from './viewer-config.js';

/** Where the MCP headend listens: a port for Streamable HTTP, or stdio. */
export type McpListen = { kind: 'http'; port: number } | { kind: 'stdio' };

/** Everything `agent-server` needs, from flags, env and an optional config file. */
export interface ServerConfig extends ServerLimits {
  agents: string[];
  host: string;
  api?: number;
  openai?: number;
  anthropic?: number;
  mcp?: McpListen;
  /** `--a2a <port>` / `a2a: {...}`: the Agent2Agent face (docs/a2a.md). */
  a2a?: A2aServerConfig;
  /** The Slack headend (Socket Mode), when enabled. */
  slack?: SlackServerConfig;
  /** `slack` came from an `.ai-agent.json`: its routes name these agent files until the agents are loaded. */
  slackAgentFiles?: string[];
  /** What of ai-agent's `slack` section is ignored, for the log. */
  slackNotes?: string[];
  tokens: string[];
  /** Tokens whose holders see and decide every client's sessions (docs/security.md). */
  operatorTokens: string[];
  allowNoAuth: boolean;
  /** `--assistant-text`: the REST face forwards the model's text outside the report (default off). */
  assistantText?: boolean;
  /** `--allowed-host`: hostnames the faces answer besides loopback names and `host` (`faceHostnames`). */
  allowedHosts?: string[];
  drainSeconds: number;
  bodyLimitBytes?: number;
  concurrency?: number;
  queueSize?: number;
  /** `--queue redis://...`: runs go to this shared BullMQ queue instead of running here. */
  runQueue?: RunQueueConfig;
  /** `--agent-config`: the agent runtime's own config file (providers, MCP servers). */
  agentConfig?: string;
  /** `--viewer <port>`: the live session viewer (docs/observability.md). */
  viewer?: ViewerConfig;
  /** `--metrics <port>`: Prometheus metrics at `http://127.0.0.1:<port>/metrics`. */
  metrics?: number;
}

/** The shared run queue a face enqueues to (`docs/deployment.md`). */
export interface RunQueueConfig {
  url: string;
  /** `--queue-max`: runs waiting for a worker beyond which the faces answer 429 (default 1000). */
  maxWaiting?: number;
  /** `--queue-name`: the BullMQ queue (default `agent-runs`); faces and workers must agree. */
  name?: string;
}

export function parseMcp(value: unknown): McpListen {
  if (value === 'stdio') return { kind: 'stdio' };
  const text = String(value);
  const match = /^(?:http:)?(\d+)$/.exec(text);
  if (match?.[1] === undefined) {
    throw configError(
      '--mcp',
      value,
      '"stdio" or "http:<port>"',
      `--mcp: expected "stdio" or "http:<port>", not ${JSON.stringify(value)}`,
    );
  }
  return { kind: 'http', port: parsePort(match[1], '--mcp') };
}

/**
 * The run queue's Redis URL from `AGENT_SERVER_QUEUE_URL` (checked; an error never quotes it): its
 * password stays out of the command line, which every local user can read in /proc/<pid>/cmdline.
 */
export function envQueueUrl(env: Record<string, string | undefined>): string | undefined {
  const value = env.AGENT_SERVER_QUEUE_URL;
  return value === undefined || value === '' ? undefined : checkQueueUrl(value, 'AGENT_SERVER_QUEUE_URL');
}

/** The tokens in `AGENT_SERVER_TOKENS` (or `variable`): comma or whitespace separated. */
export function envTokens(
  env: Record<string, string | undefined>,
  variable = 'AGENT_SERVER_TOKENS',
): string[] {
  return (env[variable] ?? '').split(/[\s,]+/).filter((token) => token !== '');
}

const FILE_KEYS = new Set([
  'agents',
  'host',
  'api',
  'openai',
  'anthropic',
  'mcp',
  'a2a',
  'slack',
  'tokens',
  'operatorTokens',
  'allowNoAuth',
  'assistantText',
  'allowedHosts',
  'drainSeconds',
  'bodyLimitBytes',
  'concurrency',
  'queueSize',
  'queueUrl',
  'agentConfig',
  'viewer',
  ...LIMIT_OPTIONS.map((option) => option.key),
]);

/** Reads `server.json`; agent and config paths are relative to the file. */
export function readConfigFile(path: string): Partial<ServerConfig> {
  const file = readServerJson(path);
  const base = dirname(resolve(path));
  const config: Partial<ServerConfig> = {};
  if (file.agents !== undefined) {
    if (!Array.isArray(file.agents) || !file.agents.every((agent) => typeof agent === 'string')) {
      throw configError(
        'agents',
        file.agents,
        'an array of .ai file paths',
        `${path}: "agents" must be an array of .ai file paths`,
      );
    }
    config.agents = file.agents.map((agent) => resolve(base, agent));
  }
  if (typeof file.host === 'string') config.host = file.host;
  for (const key of ['api', 'openai', 'anthropic'] as const) {
    if (file[key] !== undefined) config[key] = parsePort(file[key], `${path}: "${key}"`);
  }
  if (file.mcp !== undefined) config.mcp = parseMcp(file.mcp);
  if (file.a2a !== undefined) config.a2a = parseA2aConfig(file.a2a, path);
  if (file.slack !== undefined) config.slack = parseSlackConfig(file.slack, path);
  if (file.viewer !== undefined) config.viewer = parseViewerConfig(file.viewer, path);
  for (const key of ['tokens', 'operatorTokens'] as const) {
    const tokens = file[key];
    if (tokens === undefined) continue;
    if (!Array.isArray(tokens) || !tokens.every((token) => typeof token === 'string')) {
      throw configError(
        key,
        undefined,
        'an array of strings',
        `${path}: "${key}" must be an array of strings`,
      );
    }
    config[key] = tokens;
  }
  if (typeof file.allowNoAuth === 'boolean') config.allowNoAuth = file.allowNoAuth;
  if (file.assistantText !== undefined) {
    if (typeof file.assistantText !== 'boolean') {
      throw configError(
        'assistantText',
        file.assistantText,
        'true or false',
        `${path}: "assistantText" must be true or false, not ${JSON.stringify(file.assistantText)}`,
      );
    }
    config.assistantText = file.assistantText;
  }
  if (file.allowedHosts !== undefined) {
    if (!Array.isArray(file.allowedHosts)) {
      throw configError(
        'allowedHosts',
        file.allowedHosts,
        'an array of hostnames',
        `${path}: "allowedHosts" must be an array of hostnames, like ["agents.example.com"]`,
      );
    }
    config.allowedHosts = parseAllowedHosts(file.allowedHosts, `${path}: "allowedHosts"`);
  }
  if (file.queueUrl !== undefined)
    config.runQueue = { url: checkQueueUrl(file.queueUrl, `${path}: "queueUrl"`) };
  readNumbers(file, path, config);
  if (typeof file.agentConfig === 'string') config.agentConfig = resolve(base, file.agentConfig);
  return config;
}

/** `server.json` read as a JSON object whose keys are all known. */
function readServerJson(path: string): Record<string, unknown> {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw configError(path, undefined, 'a readable JSON file', `${path}: ${errorMessage(error)}`);
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw configError(path, raw, 'a JSON object', `${path}: the config must be a JSON object`);
  }
  const file = raw as Record<string, unknown>;
  for (const key of Object.keys(file)) {
    if (!FILE_KEYS.has(key)) {
      throw configError(
        key,
        undefined,
        `one of ${[...FILE_KEYS].join(', ')}`,
        `${path}: unknown key "${key}" (allowed: ${[...FILE_KEYS].join(', ')})`,
      );
    }
  }
  return file;
}

/** The numeric keys: the server's counts and durations, and the limits (each checked against its unit). */
function readNumbers(file: Record<string, unknown>, path: string, config: Partial<ServerConfig>): void {
  for (const key of ['drainSeconds', 'bodyLimitBytes', 'concurrency', 'queueSize'] as const) {
    const value = file[key];
    if (value === undefined) continue;
    if (typeof value !== 'number' || !(value >= 0)) {
      throw configError(
        key,
        value,
        'a non-negative number',
        `${path}: "${key}" must be a non-negative number`,
      );
    }
    config[key] = value;
  }
  for (const { key, unit } of LIMIT_OPTIONS) {
    if (file[key] === undefined) continue;
    const problem = limitProblem(file[key], unit);
    if (problem !== undefined) {
      throw configError(
        key,
        file[key],
        problem,
        `${path}: "${key}" must be ${problem}, not ${JSON.stringify(file[key])}`,
      );
    }
    config[key] = file[key] as number;
  }
}
