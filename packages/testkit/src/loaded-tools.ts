import type { ConversationMessage, ToolDefinition } from '@agent/protocol';

/**
 * The tools a model can call on a request: those sent loaded, and the deferred ones a tool
 * result of the conversation references (Anthropic's tool search loads them there).
 */
export function loadedTools(request: {
  tools: readonly ToolDefinition[];
  messages: readonly ConversationMessage[];
}): string[] {
  const referenced = new Set<string>();
  for (const message of request.messages) {
    if (message.role === 'tool') for (const name of message.toolReferences ?? []) referenced.add(name);
  }
  return request.tools
    .filter((tool) => tool.deferLoading !== true || referenced.has(tool.name))
    .map((tool) => tool.name);
}
