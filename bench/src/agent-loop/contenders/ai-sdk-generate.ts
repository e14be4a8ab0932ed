// Vercel AI SDK 6 `generateText` with a tool and a step limit (`ai-sdk-setup.ts`).
import { generateText, stepCountIs } from 'ai';
import { INSTRUCTIONS } from '../script.js';
import { aiSdkSetup } from './ai-sdk-setup.js';
import type { ContenderFactory, SessionOutcome } from './types.js';

/** `generateText`: one non-streamed call per step, so it surfaces no stream events. */
export const createAiSdkGenerate: ContenderFactory = (baseURL) => {
  const { model, tools } = aiSdkSetup(baseURL);
  return async (prompt, turns): Promise<SessionOutcome> => {
    const result = await generateText({
      model,
      tools,
      system: INSTRUCTIONS,
      prompt,
      stopWhen: stepCountIs(turns + 2),
    });
    return { finalText: result.text, events: 0 };
  };
};
