// The floor: a plain loop over the official `openai` client, streaming, executing the tool
// calls and appending the messages. No framework at all.
import OpenAI from 'openai';
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import { INSTRUCTIONS, lookup, MODEL, TOOL_DESCRIPTION, TOOL_NAME, TOOL_SCHEMA } from '../script.js';
import type { ContenderFactory, SessionOutcome, SessionRunner } from './types.js';

interface PendingCall {
  id: string;
  name: string;
  arguments: string;
}

const tools: ChatCompletionTool[] = [
  {
    type: 'function',
    function: { name: TOOL_NAME, description: TOOL_DESCRIPTION, parameters: { ...TOOL_SCHEMA } },
  },
];

/**
 * What a loop adds to the plain one to speak agent-core's protocol (the raw-loop-xml contender):
 * one session's ephemeral user message for each request, and the answer read out of its reply.
 */
export interface LoopProtocol {
  session(): { notice(turn: number): string; answer(text: string): string };
}

export const createRawLoop: ContenderFactory = (baseURL) => rawLoop(baseURL);

export function rawLoop(baseURL: string, protocol?: LoopProtocol): SessionRunner {
  const client = new OpenAI({ baseURL, apiKey: 'bench-key', maxRetries: 0, logLevel: 'off' });
  return async (prompt, turns): Promise<SessionOutcome> => {
    const messages: ChatCompletionMessageParam[] = [
      { role: 'system', content: INSTRUCTIONS },
      { role: 'user', content: prompt },
    ];
    const speaking = protocol?.session();
    let events = 0;
    for (let turn = 0; turn < turns + 2; turn++) {
      const stream = await client.chat.completions.create({
        model: MODEL,
        messages:
          speaking === undefined
            ? messages
            : [...messages, { role: 'user', content: speaking.notice(turn + 1) }],
        tools,
        stream: true,
        stream_options: { include_usage: true },
      });
      let text = '';
      const calls: PendingCall[] = [];
      for await (const chunk of stream) {
        events++;
        const delta = chunk.choices[0]?.delta;
        if (delta === undefined) continue;
        if (delta.content) text += delta.content;
        for (const fragment of delta.tool_calls ?? []) {
          let call = calls[fragment.index];
          if (call === undefined) {
            call = { id: '', name: '', arguments: '' };
            calls[fragment.index] = call;
          }
          if (fragment.id) call.id = fragment.id;
          if (fragment.function?.name) call.name += fragment.function.name;
          if (fragment.function?.arguments) call.arguments += fragment.function.arguments;
        }
      }
      if (calls.length === 0)
        return { finalText: speaking === undefined ? text : speaking.answer(text), events };
      messages.push({
        role: 'assistant',
        content: text === '' ? null : text,
        tool_calls: calls.map((call) => ({
          id: call.id,
          type: 'function' as const,
          function: { name: call.name, arguments: call.arguments },
        })),
      });
      const results = await Promise.all(
        calls.map(async (call) => ({
          role: 'tool' as const,
          tool_call_id: call.id,
          content: await Promise.resolve(lookup(JSON.parse(call.arguments))),
        })),
      );
      messages.push(...results);
    }
    throw new Error(`raw-loop: no final answer after ${turns + 2} model calls`);
  };
}
