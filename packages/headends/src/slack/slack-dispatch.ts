import { errorMessage } from '@agent/protocol/util';
import type { AgentCatalog } from '../agent-catalog.js';
import type { SlashCommand, SlashReply } from './slack-commands.js';
import { type ConversationContext, converse } from './slack-conversation.js';
import { type HistoryBounds, type SlackIdentity, threadHistory, withoutBotMention } from './slack-history.js';
import type { SlackEngagement, SlackRouter } from './slack-routing.js';

/** A Slack message event, as far as this headend reads it. */
export interface SlackMessageEvent {
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

/** How a message engaged the bot; none for what it does not answer. */
function engagementOf(event: SlackMessageEvent, me: SlackIdentity): SlackEngagement | undefined {
  if (event.subtype !== undefined || event.bot_id !== undefined || event.user === me.userId) return undefined;
  if (event.type === 'app_mention') return 'mentions';
  if (event.channel_type === 'im') return 'dms';
  // A post that mentions the bot also comes as `app_mention`: answered there.
  if ((event.text ?? '').includes(`<@${me.userId}>`)) return undefined;
  return 'channel-posts';
}

/**
 * Turns Slack events and slash commands into conversations: decides the engagement, routes
 * it, reads the thread, and keeps every conversation it started until `settle()`.
 */
export class SlackDispatch {
  identity: SlackIdentity | undefined;
  private readonly running = new Set<Promise<void>>();
  private readonly seen = new Set<string>();
  private readonly names = new Map<string, string | undefined>();

  constructor(
    private readonly ctx: ConversationContext,
    private readonly router: SlackRouter,
    private readonly catalog: AgentCatalog,
    private readonly bounds: HistoryBounds,
  ) {}

  /** Handles a message event in the background (the envelope is acked at once). */
  message(event: SlackMessageEvent): void {
    this.track(this.onMessage(event));
  }

  /** Routes a slash command, starts its conversation, and says what to reply at once. */
  command(command: SlashCommand): SlashReply {
    const decision = this.router.route({
      channelId: command.channelId,
      channelName: command.channelName,
      engagement: 'commands',
    });
    const agent = 'agent' in decision ? this.catalog.get(decision.agent) : undefined;
    if (agent === undefined)
      return { response_type: 'ephemeral', text: `${command.command} is not available here.` };
    const prompt = command.text.trim();
    if (prompt === '')
      return { response_type: 'ephemeral', text: `Usage: ${command.command} <your request>` };
    this.track(
      converse(this.ctx, { agent, channel: command.channelId, threadTs: undefined, prompt, history: [] }),
    );
    return { response_type: 'ephemeral', text: 'Working on it…' };
  }

  /** Waits for every conversation started so far. */
  async settle(): Promise<void> {
    await Promise.all([...this.running]);
  }

  private async onMessage(event: SlackMessageEvent): Promise<void> {
    const me = this.identity;
    if (me === undefined || event.channel === undefined || event.ts === undefined) return;
    const engagement = engagementOf(event, me);
    if (engagement === undefined || !this.firstTime(`${event.channel}:${event.ts}`)) return;
    const name = engagement === 'dms' ? undefined : await this.channelName(event.channel);
    const decision = this.router.route({ channelId: event.channel, channelName: name, engagement });
    if (!('agent' in decision)) {
      if ('denied' in decision)
        this.ctx.log('info', `slack: ${engagement} in ${name ?? event.channel} denied by a rule`);
      return;
    }
    const agent = this.catalog.get(decision.agent);
    const prompt = withoutBotMention(event.text ?? '', me);
    if (agent === undefined || prompt === '') return;
    const threadTs = event.thread_ts ?? event.ts;
    const history =
      event.thread_ts === undefined
        ? []
        : await threadHistory(this.ctx.web, event.channel, threadTs, event.ts, me, this.bounds);
    await converse(this.ctx, { agent, channel: event.channel, threadTs, prompt, history });
  }

  private track(work: Promise<void>): void {
    const done: Promise<void> = work
      .catch((error) => this.ctx.log('error', this.ctx.redact(`slack: ${errorMessage(error)}`)))
      .finally(() => this.running.delete(done));
    this.running.add(done);
  }

  private firstTime(key: string): boolean {
    if (this.seen.has(key)) return false;
    if (this.seen.size >= SEEN_LIMIT) this.seen.delete(this.seen.values().next().value as string);
    this.seen.add(key);
    return true;
  }

  private async channelName(channel: string): Promise<string | undefined> {
    if (this.names.has(channel)) return this.names.get(channel);
    const info = await this.ctx.web.conversations.info({ channel }).catch(() => undefined);
    if (this.names.size >= NAMES_LIMIT) this.names.clear();
    this.names.set(channel, info?.channel?.name);
    return info?.channel?.name;
  }
}
