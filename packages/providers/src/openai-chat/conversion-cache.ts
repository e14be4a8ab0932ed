import type { ConversationMessage, ToolDefinition } from '@agent/protocol';
import type OpenAI from 'openai';

type ChatMessage = OpenAI.Chat.ChatCompletionMessageParam;
type ChatTool = OpenAI.Chat.ChatCompletionTool;

interface Converted {
  out: ChatMessage;
  /** The text converted: a message changed in place after it was sent is converted again. */
  content: string;
  /** The tool call ids the message was converted with; the conversion holds while they do. */
  ids: readonly string[];
}

/**
 * What a client already converted: every request resends the whole conversation, whose
 * messages are the same objects from one request to the next (a conversation only grows),
 * so each is converted once. A converted message is reused only while the tool call ids it
 * carries map as they did, since an id's mapping depends on the messages before it.
 */
export class ChatConversionCache {
  private readonly messages = new WeakMap<ConversationMessage, Converted>();
  private lastTools: { source: readonly ToolDefinition[]; mapped: ChatTool[] } | undefined;

  message(message: ConversationMessage, ids: readonly string[], convert: () => ChatMessage): ChatMessage {
    const cached = this.messages.get(message);
    if (cached !== undefined && cached.content === message.content && same(cached.ids, ids))
      return cached.out;
    const out = convert();
    this.messages.set(message, { out, content: message.content, ids });
    return out;
  }

  /** The tool list in the API's shape; the same definitions, turn after turn, are mapped once. */
  tools(tools: readonly ToolDefinition[], convert: (tool: ToolDefinition) => ChatTool): ChatTool[] {
    if (this.lastTools === undefined || !same(this.lastTools.source, tools)) {
      this.lastTools = { source: [...tools], mapped: tools.map(convert) };
    }
    return this.lastTools.mapped;
  }
}

function same<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
