import type { ConversationMessage } from '@agent/protocol';

/** Text of a chat message content: a string, or an array of parts whose text parts are joined. */
export function contentText(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (content === null || content === undefined) return '';
  if (!Array.isArray(content)) return undefined;
  const texts: string[] = [];
  for (const part of content) {
    if (typeof part !== 'object' || part === null) return undefined;
    const { type, text } = part as { type?: unknown; text?: unknown };
    if ((type === 'text' || type === 'input_text') && typeof text === 'string') texts.push(text);
  }
  return texts.join('\n');
}

/** A client's chat split into the prompt (last user message) and the history before it. */
export interface SplitChat {
  prompt: string;
  history: ConversationMessage[];
}

/** Splits `{role, text}` messages: the last must come from the user. */
export function splitChat(messages: { role: string; text: string }[]): SplitChat | string {
  const last = messages.at(-1);
  if (last === undefined) return 'messages must not be empty';
  if (last.role !== 'user') return `the last message must have role "user", not "${last.role}"`;
  const history: ConversationMessage[] = [];
  for (const message of messages.slice(0, -1)) {
    if (message.role === 'user') history.push({ role: 'user', content: message.text });
    else if (message.role === 'assistant') history.push({ role: 'assistant', content: message.text });
    else if (message.role === 'system' || message.role === 'developer') {
      history.push({ role: 'user', content: `Instructions from the caller:\n${message.text}` });
    } else
      return `message role "${message.role}" is not supported (allowed: system, developer, user, assistant)`;
  }
  return { prompt: last.text, history };
}
