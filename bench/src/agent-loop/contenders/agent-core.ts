// `@agent/core` `runAgent` over `@agent/providers` (`type: 'openai'`, the official `openai`
// client underneath), one in-process ToolProvider with the local tool.
import { runAgent } from '@agent/core';
import type { ToolDefinition, ToolProvider } from '@agent/protocol';
import { createModelClient } from '@agent/providers';
import { lookup, MODEL, TOOL_DESCRIPTION, TOOL_NAME, TOOL_SCHEMA } from '../script.js';
import type { ContenderFactory, SessionOutcome } from './types.js';

const definitions: readonly ToolDefinition[] = [
  { name: TOOL_NAME, description: TOOL_DESCRIPTION, inputSchema: { ...TOOL_SCHEMA } },
];

const localTools: ToolProvider = {
  id: 'local',
  listTools: async () => definitions,
  execute: async (call) => ({ ok: true, text: lookup(call.arguments.key) }),
};

export const createAgentCore: ContenderFactory = (baseURL) => {
  const client = createModelClient({
    type: 'openai',
    provider: 'openai',
    model: MODEL,
    apiKey: 'bench-key',
    baseURL,
  });
  return async (prompt, turns): Promise<SessionOutcome> => {
    let events = 0;
    const result = await runAgent({
      targets: [{ client }],
      tools: [localTools],
      userPrompt: prompt,
      maxTurns: turns + 2,
      expectedOutput: { format: 'text' },
      callbacks: {
        onEvent: () => {
          events++;
        },
      },
    });
    if (!result.success)
      throw new Error(`agent-core: ${result.exitCode}: ${result.error ?? 'no error text'}`);
    return { finalText: result.finalReport?.content ?? '', events };
  };
};
