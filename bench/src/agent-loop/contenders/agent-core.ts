// `@agent/core` `run` over `@agent/providers` (`type: 'openai'`, the official `openai` client
// underneath), one `tool()` with the local tool (its JSON Schema validated by the core).
import { defineAgent, run, tool } from '@agent/core';
import { createModelClient } from '@agent/providers';
import { INSTRUCTIONS, lookup, MODEL, TOOL_DESCRIPTION, TOOL_NAME, TOOL_SCHEMA } from '../script.js';
import type { ContenderFactory, SessionOutcome } from './types.js';

const lookupTool = tool({
  name: TOOL_NAME,
  description: TOOL_DESCRIPTION,
  parameters: TOOL_SCHEMA,
  execute: ({ key }) => lookup(key),
});

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
    const agent = defineAgent({
      model: client,
      instructions: INSTRUCTIONS,
      tools: [lookupTool],
      maxTurns: turns + 2,
      output: { format: 'text' },
    });
    const result = await run(agent, prompt, {
      onEvent: () => {
        events++;
      },
    });
    if (!result.success) throw new Error(`agent-core: ${result.exitCode}: ${result.error}`);
    return { finalText: result.finalReport.content ?? '', events };
  };
};
