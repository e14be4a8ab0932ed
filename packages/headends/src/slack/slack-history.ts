import type { ConversationMessage } from '@agent/protocol';
import type { WebClient } from '@slack/web-api';

/** Who the bot is on Slack: its messages in a thread are the assistant's. */
export interface SlackIdentity {
  userId: string;
  botId: string | undefined;
}

export interface HistoryBounds {
  messages: number;
  chars: number;
}

/** Most thread messages read in one call (Slack's page size limit). */
const PAGE = 1000;

interface ThreadMessage {
  ts?: string;
  user?: string;
  bot_id?: string;
  text?: string;
}

/** A message's text without mentions of the bot. */
export function withoutBotMention(text: string, identity: SlackIdentity): string {
  return text.split(`<@${identity.userId}>`).join('').trim();
}

/**
 * The thread before `beforeTs` as the conversation: the bot's messages as the assistant's, the
 * others' as the user's (with who wrote them), the newest `bounds.messages` of them, then the
 * oldest dropped until the text fits `bounds.chars`. Reads one page (the first 1000 replies).
 */
export async function threadHistory(
  web: WebClient,
  channel: string,
  threadTs: string,
  beforeTs: string,
  identity: SlackIdentity,
  bounds: HistoryBounds,
): Promise<ConversationMessage[]> {
  if (bounds.messages === 0 || bounds.chars === 0) return [];
  const page = await web.conversations.replies({ channel, ts: threadTs, limit: PAGE });
  const earlier = ((page.messages ?? []) as ThreadMessage[]).filter(
    (message) => message.ts !== undefined && message.ts < beforeTs && (message.text ?? '').trim() !== '',
  );
  const history: ConversationMessage[] = earlier.slice(-bounds.messages).map((message) => {
    const mine =
      message.user === identity.userId || (identity.botId !== undefined && message.bot_id === identity.botId);
    const text = withoutBotMention(message.text ?? '', identity);
    return mine
      ? { role: 'assistant', content: text }
      : { role: 'user', content: message.user === undefined ? text : `<@${message.user}>: ${text}` };
  });
  let total = history.reduce((sum, message) => sum + message.content.length, 0);
  while (history.length > 0 && total > bounds.chars) {
    total -= (history.shift() as ConversationMessage).content.length;
  }
  return history;
}
