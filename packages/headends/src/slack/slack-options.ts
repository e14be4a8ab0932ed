import { ConfigError } from '@agent/protocol';
import type { AgentCatalog } from '../agent-catalog.js';
import type { SlackRoute } from './slack-routing.js';

/** What a log line of the Slack headend says; secrets are already redacted. */
export type SlackLog = (level: 'debug' | 'info' | 'warn' | 'error', message: string) => void;

/** Options of the Slack headend. Secrets come from here or from the environment. */
export interface SlackHeadendOptions {
  catalog: AgentCatalog;
  /** Bot token (`xoxb-…`); default `$SLACK_BOT_TOKEN`. */
  botToken?: string;
  /** App-level token for Socket Mode (`xapp-…`); default `$SLACK_APP_TOKEN`. */
  appToken?: string;
  /** Signing secret for slash commands over HTTP; default `$SLACK_SIGNING_SECRET`. */
  signingSecret?: string;
  /** Where the secrets are read when not given (default `process.env`). */
  env?: Readonly<Record<string, string | undefined>>;
  /** Slack's Web API base URL (default `https://slack.com/api/`); tests point it at a fake Slack. */
  apiUrl?: string;
  /** Rules, first match wins: which channels and engagements go to which agent, or are denied. */
  routes?: readonly SlackRoute[];
  /** The agent for mentions and direct messages no rule matched; without it they are ignored. */
  defaultAgent?: string;
  /** Thread history given to the agent: at most this many earlier messages (default 20)… */
  historyMessages?: number;
  /** …and at most this many characters in all (default 16000); the oldest go first. */
  historyChars?: number;
  /** The progress message is updated at most once per this many milliseconds (default 2000). */
  updateIntervalMs?: number;
  /** Sessions running at once (default 16) and waiting (default 64); beyond, a short refusal is posted. */
  concurrency?: number;
  queueSize?: number;
  /** Largest slash-command body in bytes (default 64 KiB). */
  bodyLimitBytes?: number;
  /** Slash commands older or newer than this many seconds are refused (default 300). */
  signatureWindowSeconds?: number;
  /**
   * How long Socket Mode waits for Slack's pong before it takes the socket for dead and
   * reconnects, in milliseconds (default 5000; the SDK's `clientPingTimeout`). The SDK has no
   * separate reconnect delay: it also waits this long times the failures in a row before each
   * reconnect attempt.
   */
  pingTimeoutMs?: number;
  /** Passed to every run as `headendId` (default `slack`). */
  headendId?: string;
  /** Where the headend's log lines go (none by default: a library does not print). */
  log?: SlackLog;
}

/** The three secrets, resolved. */
export interface SlackSecrets {
  botToken: string;
  appToken: string;
  signingSecret: string | undefined;
}

function secret(given: string | undefined, env: Readonly<Record<string, string | undefined>>, name: string) {
  const value = given ?? env[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

/** The tokens from the options or the environment; a missing one is a `ConfigError` that names it. */
export function resolveSlackSecrets(options: SlackHeadendOptions): SlackSecrets {
  const env = options.env ?? process.env;
  const botToken = secret(options.botToken, env, 'SLACK_BOT_TOKEN');
  const appToken = secret(options.appToken, env, 'SLACK_APP_TOKEN');
  if (botToken === undefined) {
    throw new ConfigError({
      field: 'slack.botToken',
      allowed: 'a bot token (xoxb-…) in the config or in SLACK_BOT_TOKEN',
      message: 'slack headend: no bot token; set slack.botToken or SLACK_BOT_TOKEN',
    });
  }
  if (appToken === undefined) {
    throw new ConfigError({
      field: 'slack.appToken',
      allowed: 'an app-level token (xapp-…) with connections:write, in the config or in SLACK_APP_TOKEN',
      message: 'slack headend: no app-level token for Socket Mode; set slack.appToken or SLACK_APP_TOKEN',
    });
  }
  return { botToken, appToken, signingSecret: secret(options.signingSecret, env, 'SLACK_SIGNING_SECRET') };
}

/** Replaces every secret in a text with `[redacted]`. */
export function redactor(secrets: SlackSecrets): (text: string) => string {
  const values = [secrets.botToken, secrets.appToken, secrets.signingSecret].filter(
    (value): value is string => value !== undefined && value.length >= 4,
  );
  return (text) => values.reduce((out, value) => out.split(value).join('[redacted]'), text);
}

/** Checks a non-negative integer option. */
export function count(value: number | undefined, fallback: number, field: string, min = 0): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < min) {
    throw new ConfigError({
      field,
      value,
      allowed: `an integer of at least ${min}`,
      message: `slack headend: ${field} must be an integer of at least ${min}, not ${value}`,
    });
  }
  return value;
}
