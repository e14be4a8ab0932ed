import { ConfigError } from '@agent/protocol';
import { errorMessage } from '@agent/protocol/util';
import { SocketModeClient } from '@slack/socket-mode';
import { type Logger, WebClient } from '@slack/web-api';
import { Hono } from 'hono';
import { Admission } from '../admission.js';
import type { Headend } from '../headend.js';
import { HeadendError } from '../headend-error.js';
import { installCommandRoute, parseSlashCommand, type SlashReply } from './slack-commands.js';
import type { ConversationContext } from './slack-conversation.js';
import { SlackDispatch, type SlackMessageEvent } from './slack-dispatch.js';
import { slackLogger } from './slack-logger.js';
import {
  count,
  redactor,
  resolveSlackSecrets,
  type SlackHeadendOptions,
  type SlackLog,
  type SlackSecrets,
} from './slack-options.js';
import { SlackRouter } from './slack-routing.js';

/** The Slack headend: Socket Mode for events and commands, plus `POST /slack/commands` over HTTP. */
export interface SlackHeadend extends Headend {
  kind: 'slack';
  /** Connects to Slack (Socket Mode); resolves once Slack said hello. */
  start(): Promise<void>;
  /** Disconnects, aborts running sessions and waits for their last posts. */
  dispose(): Promise<void>;
}

/**
 * Answers in Slack: @-mentions, direct messages and (when a rule asks) channel posts, routed to
 * agents by channel and engagement; each answer is one message updated in place while the agent
 * works, then the report in Block Kit. Slash commands come over Socket Mode or, signed, over HTTP.
 */
export function createSlackHeadend(options: SlackHeadendOptions): SlackHeadend {
  refuseRenamedOptions(options);
  const secrets = resolveSlackSecrets(options);
  const redact = redactor(secrets);
  const log = options.log ?? (() => undefined);
  const router = new SlackRouter(options.routes ?? [], options.defaultAgent, options.catalog);
  const bounds = {
    messages: count(options.historyMessages, 20, 'slack.historyMessages'),
    chars: count(options.historyChars, 16_000, 'slack.historyChars'),
  };
  const { web, socket } = slackClients(options, secrets, slackLogger(options.log, redact));
  const connect = observeReconnects(socket, log);
  const admission = new Admission({ limit: options.concurrency, queueSize: options.queueSize });
  const ctx: ConversationContext = {
    web,
    admission,
    headendId: options.headendId ?? 'slack',
    updateIntervalMs: count(options.updateIntervalMs, 2000, 'slack.updateIntervalMs'),
    log,
    redact,
  };
  const dispatch = new SlackDispatch(ctx, router, options.catalog, bounds);
  listenOnSocket(socket, dispatch);
  const app = commandsApp(options, secrets.signingSecret, redact, dispatch, admission);

  return {
    kind: 'slack',
    app,
    admission,
    // The slash-command route checks Slack's signature; nothing else is served.
    authRequired: true,
    start: async () => {
      const who = await web.auth.test();
      if (who.user_id === undefined)
        throw new HeadendError('slack_unexpected_answer', 'auth.test answered without a user_id');
      dispatch.identity = { userId: who.user_id, botId: who.bot_id };
      await connect();
    },
    dispose: async () => {
      admission.beginDrain();
      await socket.disconnect().catch(() => undefined);
      admission.abortAll('the Slack headend is closing');
      await dispatch.settle();
    },
  };
}

/**
 * `reconnectDelayMs` was handed to the SDK as its pong timeout, which is what it is: a value
 * meant as a reconnect delay would change how soon a live socket is taken for dead. Refused,
 * naming the option that says what it does.
 */
function refuseRenamedOptions(options: SlackHeadendOptions): void {
  if ((options as { reconnectDelayMs?: unknown }).reconnectDelayMs === undefined) return;
  throw new ConfigError({
    field: 'slack.reconnectDelayMs',
    value: (options as { reconnectDelayMs?: unknown }).reconnectDelayMs,
    allowed: 'slack.pingTimeoutMs',
    message:
      'slack headend: reconnectDelayMs is now pingTimeoutMs: how long Socket Mode waits for a pong (the SDK also waits that long times the failures in a row before reconnecting)',
  });
}

/** Slack's Web API client (bot token) and Socket Mode client (app token), both logging through `logger`. */
function slackClients(options: SlackHeadendOptions, secrets: SlackSecrets, logger: Logger) {
  const clientOptions = {
    slackApiUrl: options.apiUrl ?? 'https://slack.com/api/',
    // Slack's `fiveRetriesInFiveMinutes` (not imported: Node's ESM loader cannot see that export).
    retryConfig: { retries: 5, factor: 3.86 },
    timeout: 30_000,
  };
  const web = new WebClient(secrets.botToken, { ...clientOptions, logger });
  const socket = new SocketModeClient({
    appToken: secrets.appToken,
    logger,
    clientOptions,
    clientPingTimeout: count(options.pingTimeoutMs, 5000, 'slack.pingTimeoutMs', 1),
  });
  return { web, socket };
}

/**
 * Socket Mode reconnects by calling `start()` again and leaves a failed attempt's promise
 * unobserved (slackapi/node-slack-sdk#2656): its rejection would end the process under Node's
 * default `--unhandled-rejections=throw`. Reconnects here go through a `start` that logs the
 * failure instead; the SDK tries again when that socket closes. Returns the original `start`,
 * whose failure the headend's own `start` reports.
 */
function observeReconnects(socket: SocketModeClient, log: SlackLog): () => Promise<unknown> {
  const start = socket.start.bind(socket);
  socket.start = () =>
    start().catch((error: unknown) => {
      log(
        'warn',
        `Slack Socket Mode could not reconnect (${error === undefined ? 'closed before it was ready' : errorMessage(error)}); it tries again`,
      );
      return undefined as never;
    });
  return start;
}

/** Socket Mode's events to the dispatch: messages in the background, slash commands answered at once. */
function listenOnSocket(socket: SocketModeClient, dispatch: SlackDispatch): void {
  const onEvent = ({ ack, event }: { ack: () => Promise<void>; event: SlackMessageEvent }) => {
    ack().catch(() => undefined);
    dispatch.message(event);
  };
  socket.on('app_mention', onEvent);
  socket.on('message', onEvent);
  socket.on(
    'slash_commands',
    ({ ack, body }: { ack: (reply: SlashReply) => Promise<void>; body: Record<string, unknown> }) => {
      const command = parseSlashCommand(body);
      const reply: SlashReply =
        typeof command === 'string'
          ? { response_type: 'ephemeral', text: command }
          : dispatch.command(command);
      ack(reply).catch(() => undefined);
    },
  );
}

/** The headend's HTTP app: signed slash commands at `POST /slack/commands`, and `/health`. */
function commandsApp(
  options: SlackHeadendOptions,
  signingSecret: string | undefined,
  redact: (text: string) => string,
  dispatch: SlackDispatch,
  admission: Admission,
): Hono {
  const app = new Hono();
  app.onError((error, c) => c.json({ error: `internal error: ${redact(error.message)}` }, 500));
  installCommandRoute(app, {
    signingSecret,
    windowSeconds: count(options.signatureWindowSeconds, 300, 'slack.signatureWindowSeconds', 1),
    bodyLimitBytes: count(options.bodyLimitBytes, 64 * 1024, 'slack.bodyLimitBytes', 1),
    handle: (command) => dispatch.command(command),
  });
  app.get('/health', (c) =>
    c.json({ status: admission.draining ? 'draining' : 'ok', active: admission.active }),
  );
  return app;
}
