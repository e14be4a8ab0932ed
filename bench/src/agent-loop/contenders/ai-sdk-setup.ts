// Vercel AI SDK 6: `generateText` and `streamText` with a `tool()` and a step limit, over
// `@ai-sdk/openai`'s Chat Completions model. The SDK does not use the `openai` client: its
// provider calls `fetch` itself (the same global fetch the `openai` client uses).
import { createOpenAI } from '@ai-sdk/openai';
import { type LanguageModel, type ToolSet, tool } from 'ai';
import { z } from 'zod';
import { lookup, MODEL, TOOL_DESCRIPTION, TOOL_NAME } from '../script.js';

/** The same provider and tool for both AI SDK contenders. */
export function aiSdkSetup(baseURL: string): { model: LanguageModel; tools: ToolSet } {
  const model = createOpenAI({ baseURL, apiKey: 'bench-key' }).chat(MODEL);
  const tools = {
    [TOOL_NAME]: tool({
      description: TOOL_DESCRIPTION,
      inputSchema: z.object({ key: z.string().describe('The key to look up.') }),
      execute: async ({ key }) => lookup(key),
    }),
  };
  return { model, tools };
}
