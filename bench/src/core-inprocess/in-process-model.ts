// The agent-loop script played by a model inside the process: the same answers as the testkit
// server gives (read from the request), yielded as stream events with no HTTP, no SDK and no
// provider layer in between, so what a session costs is the core's own work.

import type * as core from '@agent/core';
import type { ModelClient, ModelRequest, ModelStreamEvent, TokenUsage } from '@agent/protocol';
import type { RecordedRequest } from '@agent/testkit';
import {
  INSTRUCTIONS,
  lookup,
  MODEL,
  planAnswer,
  TOOL_DESCRIPTION,
  TOOL_NAME,
  TOOL_SCHEMA,
} from '../agent-loop/script.js';

/** Sessions run before measuring: about 400 model calls, at least 20 sessions. */
export function warmupSessions(turns: number): number {
  return Math.max(20, Math.ceil(400 / (turns + 1)));
}

const USAGE: TokenUsage = { inputTokens: 300, outputTokens: 20, totalTokens: 320 };

export function inProcessModel(countTokens?: (text: string) => number): ModelClient {
  let calls = 0;
  return {
    provider: 'openai',
    model: MODEL,
    parallelToolCalls: true,
    ...(countTokens === undefined ? {} : { countTokens }),
    async *stream(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
      const { answer } = planAnswer({ messages: request.messages } as unknown as RecordedRequest);
      if (answer.error !== undefined) throw new Error(answer.error.message);
      for (const delta of answer.text ?? []) yield { type: 'text-delta', text: delta };
      for (const call of answer.toolCalls ?? []) {
        const rawArguments = JSON.stringify(call.arguments);
        yield {
          type: 'tool-call',
          call: {
            id: `call_${++calls}`,
            name: call.name,
            arguments: call.arguments as Record<string, unknown>,
            rawArguments,
          },
        };
      }
      yield { type: 'usage', usage: USAGE };
      yield { type: 'finish', stopReason: (answer.toolCalls?.length ?? 0) > 0 ? 'tool_calls' : 'stop' };
    },
  };
}

/** The agent-loop script's agent (its instructions and lookup tool) over `model`, built by a checkout's core. */
export function scriptAgent(
  { defineAgent, tool }: Pick<typeof core, 'defineAgent' | 'tool'>,
  model: ModelClient,
  turns: number,
) {
  return defineAgent({
    model,
    instructions: INSTRUCTIONS,
    tools: [
      tool({
        name: TOOL_NAME,
        description: TOOL_DESCRIPTION,
        parameters: TOOL_SCHEMA,
        execute: ({ key }) => lookup(key),
      }),
    ],
    maxTurns: turns + 2,
    output: { format: 'text' },
  });
}
