// `@openai/agents`: an Agent with a function tool, run streamed by a Runner, over the
// Chat Completions model with an `openai` client pointed at the server. Tracing is disabled
// (no exporter may send anything), as its docs recommend when there is no exporter.
import { Agent, OpenAIChatCompletionsModel, Runner, setTracingDisabled, tool } from '@openai/agents';
import OpenAI from 'openai';
import { z } from 'zod';
import { INSTRUCTIONS, lookup, MODEL, TOOL_DESCRIPTION, TOOL_NAME } from '../script.js';
import type { ContenderFactory, SessionOutcome } from './types.js';

export const createOpenAIAgents: ContenderFactory = (baseURL) => {
  setTracingDisabled(true);
  const client = new OpenAI({ baseURL, apiKey: 'bench-key', maxRetries: 0, logLevel: 'off' });
  const lookupTool = tool({
    name: TOOL_NAME,
    description: TOOL_DESCRIPTION,
    parameters: z.object({ key: z.string().describe('The key to look up.') }),
    execute: async ({ key }) => lookup(key),
  });
  const agent = new Agent({
    name: 'bench',
    instructions: INSTRUCTIONS,
    model: new OpenAIChatCompletionsModel(client, MODEL),
    tools: [lookupTool],
  });
  const runner = new Runner({ tracingDisabled: true });
  return async (prompt, turns): Promise<SessionOutcome> => {
    const result = await runner.run(agent, prompt, { stream: true, maxTurns: turns + 2 });
    let events = 0;
    for await (const _event of result) events++;
    await result.completed;
    if (result.error) throw result.error;
    return { finalText: String(result.finalOutput ?? ''), events };
  };
};
