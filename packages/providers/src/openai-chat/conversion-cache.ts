import type { ConversationMessage, ToolDefinition } from '@agent/protocol';
import type OpenAI from 'openai';
import type { ToolIdMapper } from '../tool-call-ids.js';

type ChatMessage = OpenAI.Chat.ChatCompletionMessageParam;
type ChatTool = OpenAI.Chat.ChatCompletionTool;

/**
 * How far one conversation was converted: the messages seen (with their text then), the output
 * and, after each message, the output's length and the id mapper's mark. A request that starts
 * with the same messages continues from there; only the messages after them are converted.
 */
export interface ChatProgress {
  readonly sources: ConversationMessage[];
  readonly contents: string[];
  readonly out: ChatMessage[];
  readonly outAfter: number[];
  readonly marks: number[];
  readonly ids: ToolIdMapper;
}

/** How many leading messages of `messages` are the ones `progress` saw, unchanged. */
export function sharedPrefix(progress: ChatProgress, messages: readonly ConversationMessage[]): number {
  const { sources, contents } = progress;
  const limit = Math.min(sources.length, messages.length);
  let count = 0;
  while (count < limit && sources[count] === messages[count] && contents[count] === messages[count]!.content)
    count++;
  return count;
}

/** Takes `progress` back to just after its first `count` messages. */
export function rewind(progress: ChatProgress, count: number): void {
  progress.out.length = count === 0 ? 0 : progress.outAfter[count - 1]!;
  progress.ids.rollback(count === 0 ? 0 : progress.marks[count - 1]!);
  progress.sources.length = count;
  progress.contents.length = count;
  progress.outAfter.length = count;
  progress.marks.length = count;
}

/**
 * What a client already converted: every request resends the whole conversation, whose
 * messages are the same objects from one request to the next (a conversation only grows, and
 * only its last message, the notice, is new each time), so each message is converted once.
 * A message changed in place, or a history that is not a continuation, is converted from the
 * first message that differs (tool call ids map by the messages before them).
 */
export class ChatConversionCache {
  /** Per conversation, keyed by its first message (sessions of one client run side by side). */
  private readonly progress = new WeakMap<ConversationMessage, ChatProgress>();
  private lastTools: { source: readonly ToolDefinition[]; mapped: ChatTool[] } | undefined;

  progressOf(first: ConversationMessage): ChatProgress | undefined {
    return this.progress.get(first);
  }

  keepProgress(first: ConversationMessage, progress: ChatProgress): void {
    this.progress.set(first, progress);
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
