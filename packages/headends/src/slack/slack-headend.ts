import { errorMessage } from '@agent/protocol/util';
import { SocketModeClient } from '@slack/socket-mode';
import { WebClient } from '@slack/web-api';
import { Hono } from 'hono';
import { Admission } from '../admission.js';
import type { Headend } from '../headend.js';
import {
  installCommandRoute,
  parseSlashCommand,
  type SlashCommand,
  type SlashReply,
} from './slack-commands.js';
import { type ConversationContext, converse } from './slack-conversation.js';
import { type SlackIdentity, threadHistory, withoutBotMention } from './slack-history.js';
import { slackLogger } from './slack-logger.js';
import { count, redactor, resolveSlackSecrets, type SlackHeadendOptions } from './slack-options.js';
import { type SlackEngagement, SlackRouter } from './slack-routing.js';

/** The Slack headend: Socket Mode for events and commands, plus `POST /slack/commands` over HTTP. */
export interface SlackHeadend extends Headend {
  kind: 'slack';
  /** Connects to Slack (Socket Mode); resolves once Slack said hello. */
  start(): Promise<void>;
  /** Disconnects, aborts running sessions and waits for their last posts. */
  dispose(): Promise<void>;
}

/** A Slack message event, as far as this headend reads it. */
interface MessageEvent {
  type: string;
  subtype?: string;
  channel?: string;
  channel_type?: string;
  user?: string;
  bot_id?: string;
  text?: string;
  ts?: string;
  thread_ts?: string;
}

/** Messages remembered to drop Slack's redeliveries. */
const SEEN_LIMIT = 1000;
/** Channel names remembered for routing. */
const NAMES_LIMIT = 1000;

/**
 * Answers in Slack: @-mentions, direct messages and (when a rule asks) channel posts, routed to
 * agents by channel and engagement; each answer is one message updated in place while the agent
 * works, then the report in Block Kit. Slash commands come over Socket Mode or, signed, over HTTP.
 */
export function createSlackHeadend(options: SlackHeadendOptions): SlackHeadend {
  const secrets = resolveSlackSecrets(options);
  const redact = redactor(secrets);
  const log = options.log ?? (() => undefined);
  const router = new SlackRouter(options.routes ?? [], options.defaultAgent, options.catalog);
  const bounds = {
    messages: count(options.historyMessages, 20, 'slack.historyMessages'),
    chars: count(options.historyChars, 16_000, 'slack.historyChars'),
  };
  const logger = slackLogger(options.log, redact);
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
    clientPingTimeout: count(options.reconnectDelayMs, 5000, 'slack.reconnectDelayMs', 1),
  });
  const admission = new Admission({ limit: options.concurrency, queueSize: options.queueSize });
  const ctx: ConversationContext = {
    web,
    admission,
    headendId: options.headendId ?? 'slack',
    updateIntervalMs: count(options.updateIntervalMs, 2000, 'slack.updateIntervalMs'),
    log,
    redact,
  };
  let identity: SlackIdentity | undefined;
  const running = new Set<Promise<void>>();
  const seen = new Set<string>();
  const names = new Map<string, string | undefined>();

  const track = (work: Promise<void>) => {
    const done = work
      .catch((error) => log('error', redact(`slack: ${errorMessage(error)}`)))
      .finally(() => running.delete(done));
    running.add(done);
  };
  const firstTime = (key: string) => {
    if (seen.has(key)) return false;
    if (seen.size >= SEEN_LIMIT) seen.delete(seen.values().next().value as string);
    seen.add(key);
    return true;
  };
  const channelName = async (channel: string): Promise<string | undefined> => {
    if (names.has(channel)) return names.get(channel);
    const info = await web.conversations.info({ channel }).catch(() => undefined);
    if (names.size >= NAMES_LIMIT) names.clear();
    names.set(channel, info?.channel?.name);
    return info?.channel?.name;
  };

  const onMessage = async (event: MessageEvent) => {
    const me = identity;
    if (me === undefined || event.channel === undefined || event.ts === undefined) return;
    if (event.subtype !== undefined || event.bot_id !== undefined || event.user === me.userId) return;
    const text = event.text ?? '';
    let engagement: SlackEngagement;
    if (event.type === 'app_mention') engagement = 'mentions';
    else if (event.channel_type === 'im') engagement = 'dms';
    // A post that mentions the bot also comes as `app_mention`: answered there.
    else if (text.includes(`<@${me.userId}>`)) return;
    else engagement = 'channel-posts';
    if (!firstTime(`${event.channel}:${event.ts}`)) return;
    const name = engagement === 'dms' ? undefined : await channelName(event.channel);
    const decision = router.route({ channelId: event.channel, channelName: name, engagement });
    if (!('agent' in decision)) {
      if ('denied' in decision)
        log('info', `slack: ${engagement} in ${name ?? event.channel} denied by a rule`);
      return;
    }
    const agent = options.catalog.get(decision.agent);
    const prompt = withoutBotMention(text, me);
    if (agent === undefined || prompt === '') return;
    const threadTs = event.thread_ts ?? event.ts;
    const history =
      event.thread_ts === undefined
        ? []
        : await threadHistory(web, event.channel, threadTs, event.ts, me, bounds);
    await converse(ctx, { agent, channel: event.channel, threadTs, prompt, history });
  };

  const onCommand = (command: SlashCommand): SlashReply => {
    const decision = router.route({
      channelId: command.channelId,
      channelName: command.channelName,
      engagement: 'commands',
    });
    const agent = 'agent' in decision ? options.catalog.get(decision.agent) : undefined;
    if (agent === undefined)
      return { response_type: 'ephemeral', text: `${command.command} is not available here.` };
    if (command.text.trim() === '')
      return { response_type: 'ephemeral', text: `Usage: ${command.command} <your request>` };
    track(
      converse(ctx, {
        agent,
        channel: command.channelId,
        threadTs: undefined,
        prompt: command.text.trim(),
        history: [],
      }),
    );
    return { response_type: 'ephemeral', text: 'Working on it…' };
  };

  const onEnvelope = ({ ack, event }: { ack: () => Promise<void>; event: MessageEvent }) => {
    ack().catch(() => undefined);
    track(onMessage(event));
  };
  socket.on('app_mention', onEnvelope);
  socket.on('message', onEnvelope);
  socket.on(
    'slash_commands',
    ({ ack, body }: { ack: (reply: SlashReply) => Promise<void>; body: Record<string, unknown> }) => {
      const command = parseSlashCommand(body);
      const reply: SlashReply =
        typeof command === 'string' ? { response_type: 'ephemeral', text: command } : onCommand(command);
      ack(reply).catch(() => undefined);
    },
  );

  const app = new Hono();
  app.onError((error, c) => c.json({ error: `internal error: ${redact(error.message)}` }, 500));
  installCommandRoute(app, {
    signingSecret: secrets.signingSecret,
    windowSeconds: count(options.signatureWindowSeconds, 300, 'slack.signatureWindowSeconds', 1),
    bodyLimitBytes: count(options.bodyLimitBytes, 64 * 1024, 'slack.bodyLimitBytes', 1),
    handle: onCommand,
  });
  app.get('/health', (c) =>
    c.json({ status: admission.draining ? 'draining' : 'ok', active: admission.active }),
  );

  return {
    kind: 'slack',
    app,
    admission,
    // The slash-command route checks Slack's signature; nothing else is served.
    authRequired: true,
    start: async () => {
      const who = await web.auth.test();
      if (who.user_id === undefined) throw new Error('auth.test answered without a user_id');
      identity = { userId: who.user_id, botId: who.bot_id };
      await socket.start();
    },
    dispose: async () => {
      admission.beginDrain();
      await socket.disconnect().catch(() => undefined);
      admission.abortAll('the Slack headend is closing');
      await Promise.all([...running]);
    },
  };
}
