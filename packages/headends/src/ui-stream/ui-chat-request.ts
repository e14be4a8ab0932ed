import { type SplitChat, splitChat } from '../conversation.js';

/** A validated `POST /api/chat` body (what the AI SDK's `DefaultChatTransport` sends). */
export interface UiChatRequest extends SplitChat {
  /** The agent to run: the body's `agent`, or the only agent of the catalog. */
  agent: string | undefined;
  /** The chat's id (`useChat`'s `id`), echoed nowhere; kept for logs. */
  chatId: string | undefined;
}

/** Most messages a chat may send (its history is the agent's conversation). */
export const MAX_UI_MESSAGES = 500;

/** A problem with the body: the 400 message. */
type Problem = { problem: string };

/**
 * The text of one UI message: its `text` parts joined. Reasoning, tool, data and file parts are
 * what this server sent before (or attachments it cannot read): they do not enter the history.
 */
function messageText(parts: unknown, at: string): string | Problem {
  if (!Array.isArray(parts)) return { problem: `${at}.parts must be an array of message parts` };
  const texts: string[] = [];
  for (const [index, part] of parts.entries()) {
    if (typeof part !== 'object' || part === null || Array.isArray(part)) {
      return { problem: `${at}.parts[${index}] must be an object with a "type"` };
    }
    const { type, text } = part as { type?: unknown; text?: unknown };
    if (typeof type !== 'string') return { problem: `${at}.parts[${index}].type must be a string` };
    if (type !== 'text') continue;
    if (typeof text !== 'string') return { problem: `${at}.parts[${index}].text must be a string` };
    texts.push(text);
  }
  return texts.join('\n');
}

/** One UI message as a role and its text. */
function uiMessage(raw: unknown, at: string): { role: string; text: string } | Problem {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    return { problem: `${at} must be an object` };
  const { role, parts } = raw as { role?: unknown; parts?: unknown };
  if (role !== 'user' && role !== 'assistant' && role !== 'system') {
    return { problem: `${at}.role must be user, assistant or system, not ${JSON.stringify(role)}` };
  }
  const text = messageText(parts, at);
  return typeof text === 'string' ? { role, text } : text;
}

/** Validates a UI chat body `{ id?, messages: UIMessage[], agent? }`; a string is the 400 message. */
export function parseUiChatRequest(body: Record<string, unknown>): UiChatRequest | string {
  if (body.agent !== undefined && (typeof body.agent !== 'string' || body.agent === '')) {
    return '"agent" must be the name of an agent';
  }
  if (!Array.isArray(body.messages)) return '"messages" must be an array of UI messages';
  if (body.messages.length > MAX_UI_MESSAGES) {
    return `"messages" holds ${body.messages.length} messages; at most ${MAX_UI_MESSAGES} are allowed`;
  }
  const messages: { role: string; text: string }[] = [];
  for (const [index, raw] of body.messages.entries()) {
    const message = uiMessage(raw, `messages[${index}]`);
    if ('problem' in message) return message.problem;
    messages.push(message);
  }
  const split = splitChat(messages);
  if (typeof split === 'string') return split;
  if (split.prompt.trim() === '') return 'the last user message has no text part';
  return {
    ...split,
    agent: body.agent as string | undefined,
    chatId: typeof body.id === 'string' ? body.id : undefined,
  };
}
