import { resolve } from 'node:path';
import { isLoopbackHost } from '@agent/headends/http';
import { checkQueueUrl } from '@agent/queue/options';
import { Command, InvalidArgumentError } from 'commander';
import { applyAiAgentSlack } from './ai-agent-slack.js';
import { parseAllowedHosts } from './allowed-hosts.js';
import { collect, parseCommandLine } from './command-line.js';
import { configError, parsePort } from './config-values.js';
import { envQueueUrl, envTokens, parseMcp, readConfigFile, type ServerConfig } from './server-config.js';
import { LIMIT_OPTIONS, type LimitOption, limitProblem, limitsConflict } from './server-limits.js';
import type { SlackServerConfig } from './slack-config.js';
import { checkEvalsDir } from './viewer-config.js';

function port(what: string) {
  return (value: string) => {
    try {
      return parsePort(value, what);
    } catch (error) {
      throw new InvalidArgumentError((error as Error).message);
    }
  };
}

function limitValue(unit: LimitOption['unit']) {
  return (text: string) => {
    const value = text.trim() === '' ? Number.NaN : Number(text);
    const problem = limitProblem(value, unit);
    if (problem !== undefined) throw new InvalidArgumentError(`expected ${problem}.`);
    return value;
  };
}

/** The flags `agent-server` takes (the limit flags are read by their attribute names). */
interface ServerFlags {
  agent?: string[];
  config?: string;
  agentConfig?: string;
  host?: string;
  api?: number;
  openai?: number;
  anthropic?: number;
  mcp?: string;
  a2a?: number;
  viewer?: number;
  evals?: string;
  slack?: boolean;
  slackPort?: number;
  token?: string[];
  operatorToken?: string[];
  allowNoAuth?: boolean;
  assistantText?: boolean;
  allowedHost?: string[];
  drainSeconds?: number;
  bodyLimit?: number;
  concurrency?: number;
  queue?: string;
  queueMax?: number;
  queueName?: string;
  metrics?: number;
}

/** The `agent-server` command line: its flags, their help and checks. */
function serverProgram(): Command {
  const program = new Command('agent-server')
    .description('Serves agents over REST, OpenAI- and Anthropic-compatible APIs, MCP, A2A and Slack.')
    .option('--agent <file>', 'an .ai agent file to serve (repeatable)', collect)
    .option('--config <file>', 'server config file (server.json)')
    .option('--agent-config <file>', 'the agent runtime config (agent.json)')
    .option('--host <host>', 'interface to bind (default 127.0.0.1)')
    .option('--api <port>', 'REST headend port', port('--api'))
    .option('--openai <port>', 'OpenAI-compatible headend port', port('--openai'))
    .option('--anthropic <port>', 'Anthropic-compatible headend port', port('--anthropic'))
    .option(
      '--a2a <port>',
      'Agent2Agent (A2A) headend port (cards at /a2a/<agent>/.well-known/agent-card.json)',
      port('--a2a'),
    )
    .option('--viewer <port>', 'live session viewer (a web page) port', port('--viewer'))
    .option(
      '--evals <dir>',
      "the viewer's eval page: the runs `agent eval --out <dir>` wrote (operator tokens only)",
    )
    .option('--mcp <where>', 'MCP headend: http:<port> or stdio')
    .option('--slack', 'Slack headend over Socket Mode (tokens from SLACK_BOT_TOKEN, SLACK_APP_TOKEN)')
    .option(
      '--slack-port <port>',
      'port for Slack slash commands over HTTP (implies --slack)',
      port('--slack-port'),
    )
    .option('--token <token>', 'accepted bearer token (repeatable; also AGENT_SERVER_TOKENS)', collect)
    .option(
      '--operator-token <token>',
      "accepted bearer token that sees and decides every client's sessions (repeatable; also AGENT_SERVER_OPERATOR_TOKENS)",
      collect,
    )
    .option('--allow-no-auth', 'serve without tokens (loopback hosts only)')
    .option(
      '--assistant-text',
      "REST face: forward the model's text outside the report (SSE assistant_text events, marked text parts on /api/chat; default off)",
    )
    .option(
      '--allowed-host <hostname>',
      'a hostname clients reach the faces and the viewer by, accepted in Host and Origin besides loopback names and --host (repeatable)',
      collect,
    )
    .option('--drain-seconds <n>', 'on SIGTERM, how long running sessions may finish (default 30)', Number)
    .option('--body-limit <bytes>', 'largest request body (default 1 MiB)', Number)
    .option('--concurrency <n>', 'sessions running at once per headend (default 16)', Number)
    .option(
      '--queue <n|url>',
      'requests waiting per headend before 429 (default 64), or redis://host:port (a Redis Cluster: redis+cluster://host:port): enqueue runs for `agent-server worker` processes',
    )
    .option(
      '--queue-max <n>',
      'with --queue redis://: runs waiting for a worker before 429 (default 1000)',
      Number,
    )
    .option('--queue-name <name>', 'with --queue redis://: the queue (default agent-runs)')
    .option('--metrics <port>', 'Prometheus metrics at http://127.0.0.1:<port>/metrics', port('--metrics'));
  for (const limit of LIMIT_OPTIONS) program.option(limit.flag, limit.description, limitValue(limit.unit));
  return program;
}

/** Parses argv (+ env, + `--config` file; flags win) into a checked `ServerConfig`. */
export function parseServerArgs(argv: string[], env: Record<string, string | undefined>): ServerConfig {
  const program = serverProgram();
  parseCommandLine(program, argv);
  const flags = program.opts<ServerFlags>();
  const file = flags.config === undefined ? {} : readConfigFile(flags.config);
  const config = flagsOverFile(flags, file, env);
  if (file.slack === undefined)
    applyAiAgentSlack(config, flags.slack === true || flags.slackPort !== undefined, flags.slackPort, env);
  const limitFlags = program.opts<Record<string, number | undefined>>();
  for (const { key, attribute } of LIMIT_OPTIONS) {
    const value = limitFlags[attribute] ?? file[key];
    if (value !== undefined) config[key] = value;
  }
  checkConfig(config);
  return config;
}

/** The server config the flags and the config file make: a flag beats the file's key. */
function flagsOverFile(
  flags: ServerFlags,
  file: ReturnType<typeof readConfigFile>,
  env: Record<string, string | undefined>,
): ServerConfig {
  const queue = parseQueueFlag(flags.queue);
  // The URL (and its password) best kept off the command line: the environment, then server.json.
  const queueUrl = queue.url ?? envQueueUrl(env) ?? file.runQueue?.url;
  return {
    agents: [...(file.agents ?? []), ...(flags.agent ?? [])],
    host: flags.host ?? file.host ?? '127.0.0.1',
    api: flags.api ?? file.api,
    openai: flags.openai ?? file.openai,
    anthropic: flags.anthropic ?? file.anthropic,
    mcp: flags.mcp === undefined ? file.mcp : parseMcp(flags.mcp),
    ...a2aConfig(file.a2a, flags.a2a),
    slack: slackConfig(file.slack, flags.slack === true, flags.slackPort),
    tokens: [...(file.tokens ?? []), ...envTokens(env), ...(flags.token ?? [])],
    operatorTokens: [
      ...(file.operatorTokens ?? []),
      ...envTokens(env, 'AGENT_SERVER_OPERATOR_TOKENS'),
      ...(flags.operatorToken ?? []),
    ],
    allowNoAuth: flags.allowNoAuth ?? file.allowNoAuth ?? false,
    ...(flags.assistantText === true || file.assistantText === true ? { assistantText: true } : {}),
    allowedHosts: [
      ...(file.allowedHosts ?? []),
      ...parseAllowedHosts(flags.allowedHost ?? [], '--allowed-host'),
    ],
    drainSeconds: flags.drainSeconds ?? file.drainSeconds ?? 30,
    bodyLimitBytes: flags.bodyLimit ?? file.bodyLimitBytes,
    concurrency: flags.concurrency ?? file.concurrency,
    queueSize: queue.size ?? file.queueSize,
    ...(queueUrl === undefined
      ? {}
      : {
          runQueue: {
            url: queueUrl,
            ...(flags.queueMax === undefined ? {} : { maxWaiting: flags.queueMax }),
            ...(flags.queueName === undefined ? {} : { name: flags.queueName }),
          },
        }),
    agentConfig: flags.agentConfig ?? file.agentConfig,
    ...viewerConfig(file.viewer, flags.viewer, flags.evals),
    ...(flags.metrics === undefined ? {} : { metrics: flags.metrics }),
  };
}

/** `--queue`: a number (this headend's wait queue) or a Redis URL, cluster ones too (the shared run queue). */
function parseQueueFlag(value: string | undefined): { size?: number; url?: string } {
  if (value === undefined) return {};
  if (/^rediss?(\+cluster)?:/.test(value)) return { url: checkQueueUrl(value, '--queue') };
  return { size: value.trim() === '' ? Number.NaN : Number(value) };
}

/** `viewer` of server.json, its port replaced by `--viewer` and its eval runs by `--evals`. */
function viewerConfig(
  file: ServerConfig['viewer'],
  port: number | undefined,
  evals: string | undefined,
): Pick<ServerConfig, 'viewer'> {
  if (evals !== undefined && file === undefined && port === undefined)
    throw configError(
      '--evals',
      evals,
      'with --viewer <port>',
      '--evals: the eval page is part of the viewer: give --viewer <port> too',
    );
  if (evals === '')
    throw configError('--evals', evals, 'a directory path', '--evals: expected a directory path');
  if (file === undefined && port === undefined) return {};
  const viewer = {
    ...file,
    ...(port === undefined ? {} : { port }),
    ...(evals === undefined ? {} : { evals: resolve(evals) }),
  } as NonNullable<ServerConfig['viewer']>;
  if (viewer.evals !== undefined) checkEvalsDir(viewer.evals);
  return { viewer };
}

/** `a2a` of server.json, its port replaced by `--a2a`; `--a2a` alone enables the face with its defaults. */
function a2aConfig(file: ServerConfig['a2a'], port: number | undefined): Pick<ServerConfig, 'a2a'> {
  if (file === undefined && port === undefined) return {};
  return { a2a: { ...file, ...(port === undefined ? {} : { port }) } as NonNullable<ServerConfig['a2a']> };
}

/** `slack` of server.json, enabled or given a port by the flags. */
function slackConfig(
  file: SlackServerConfig | undefined,
  enabled: boolean,
  port: number | undefined,
): SlackServerConfig | undefined {
  if (file === undefined && !enabled && port === undefined) return undefined;
  return { ...file, ...(port === undefined ? {} : { port }) };
}

function checkConfig(config: ServerConfig): void {
  if (config.agents.length === 0)
    throw configError(
      '--agent',
      undefined,
      'at least one .ai file',
      'no agents: give --agent <file.ai> (repeatable)',
    );
  const http = [
    config.api,
    config.openai,
    config.anthropic,
    config.a2a?.port,
    config.mcp?.kind === 'http' ? 1 : undefined,
  ];
  const tokenHeadends = http.some((entry) => entry !== undefined);
  if (!tokenHeadends && config.mcp === undefined && config.slack === undefined) {
    throw configError(
      '--api',
      undefined,
      'at least one headend',
      'no headend: give --api, --openai, --anthropic, --a2a, --mcp and/or --slack',
    );
  }
  // Slack authenticates with its own tokens and signatures: bearer tokens are for the other headends.
  if (tokenHeadends || config.mcp !== undefined || config.viewer !== undefined) checkTokens(config);
  for (const [key, value] of [
    ['--drain-seconds', config.drainSeconds],
    ['--body-limit', config.bodyLimitBytes],
    ['--concurrency', config.concurrency],
    ['--queue', config.queueSize],
    ['--queue-max', config.runQueue?.maxWaiting],
  ] as const) {
    if (value !== undefined && !(Number.isFinite(value) && value >= 0)) {
      throw configError(
        key,
        value,
        'a non-negative number',
        `${key}: expected a non-negative number, not ${value}`,
      );
    }
  }
  const conflict = limitsConflict(config);
  if (conflict !== undefined)
    throw configError(
      '--headers-timeout',
      config.headersTimeoutSeconds,
      'at most --request-timeout',
      conflict,
    );
}

function checkTokens(config: ServerConfig): void {
  const anyToken = config.tokens.length > 0 || config.operatorTokens.length > 0;
  if (!anyToken && !config.allowNoAuth) {
    throw configError(
      '--token',
      undefined,
      'a token, or --allow-no-auth on loopback',
      'no tokens: give --token, AGENT_SERVER_TOKENS or --allow-no-auth (loopback only)',
    );
  }
  if (!anyToken && config.allowNoAuth && !isLoopbackHost(config.host)) {
    throw configError(
      '--host',
      config.host,
      'a loopback host with --allow-no-auth',
      `--allow-no-auth is refused on ${config.host}: bind a loopback host or give tokens`,
    );
  }
}
