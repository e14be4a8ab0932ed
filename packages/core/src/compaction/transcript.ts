import type { ConversationMessage } from '@agent/protocol';

/**
 * One message as the stored transcript (and the summarizer) reads it: a role header, then the
 * text; an assistant's tool calls with their arguments JSON, a tool result with its call id.
 */
export function renderMessage(message: ConversationMessage): string {
  switch (message.role) {
    case 'system':
      return `[system]\n${message.content}`;
    case 'user':
      return `[user]\n${message.content}`;
    case 'assistant': {
      const calls = (message.toolCalls ?? []).map(
        (call) =>
          `[tool call ${call.name} (id ${call.id})] ${call.rawArguments ?? JSON.stringify(call.arguments)}`,
      );
      return ['[assistant]', ...(message.content === '' ? [] : [message.content]), ...calls].join('\n');
    }
    case 'tool':
      return `[tool result ${message.toolName} (id ${message.toolCallId})${message.isError === true ? ' error' : ''}]\n${message.content}`;
  }
}

/** The full plain-text transcript of messages: what a compaction stores behind its handle. */
export function renderTranscript(messages: readonly ConversationMessage[]): string {
  return messages.map(renderMessage).join('\n\n');
}
