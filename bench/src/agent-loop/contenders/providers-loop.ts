// The raw loop's steps with each model call made through `@agent/providers` (the `openai` type
// over the official client) and no core: what the provider layer costs on its own, so the
// report can tell it apart from what the core adds.
import type { ConversationMessage, ToolCall, ToolDefinition } from '@agent/protocol';
import { INSTRUCTIONS, lookup, TOOL_DESCRIPTION, TOOL_NAME, TOOL_SCHEMA } from '../script.js';
import { benchModelClient } from './bench-client.js';
import type { ContenderFactory, SessionOutcome } from './types.js';

const tools: readonly ToolDefinition[] = [
  { name: TOOL_NAME, description: TOOL_DESCRIPTION, inputSchema: { ...TOOL_SCHEMA } },
];

export const createProvidersLoop: ContenderFactory = (baseURL) => {
  const client = benchModelClient(baseURL);
  return async (prompt, turns): Promise<SessionOutcome> => {
    const messages: ConversationMessage[] = [
      { role: 'system', content: INSTRUCTIONS },
      { role: 'user', content: prompt },
    ];
    // One signal per session and a timeout per call, as the core passes them.
    const session = new AbortController();
    let events = 0;
    for (let turn = 0; turn < turns + 2; turn++) {
      let text = '';
      const calls: ToolCall[] = [];
      for await (const event of client.stream(
        { messages, tools },
        { signal: session.signal, timeoutMs: 600_000 },
      )) {
        events++;
        if (event.type === 'text-delta') text += event.text;
        else if (event.type === 'tool-call') calls.push(event.call);
      }
      if (calls.length === 0) return { finalText: text, events };
      messages.push({ role: 'assistant', content: text, toolCalls: calls });
      for (const call of calls) {
        const content = await Promise.resolve(lookup(call.arguments));
        messages.push({ role: 'tool', toolCallId: call.id, toolName: call.name, content });
      }
    }
    throw new Error(`providers-loop: no final answer after ${turns + 2} model calls`);
  };
};
