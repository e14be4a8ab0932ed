// Vercel AI SDK 6 `streamText` with a tool and a step limit (`ai-sdk-setup.ts`).
import { stepCountIs, streamText } from 'ai';
import { INSTRUCTIONS } from '../script.js';
import { aiSdkSetup } from './ai-sdk-setup.js';
import type { ContenderFactory, SessionOutcome } from './types.js';

/** `streamText`: every `fullStream` part counts as an event. */
export const createAiSdkStream: ContenderFactory = (baseURL) => {
  const { model, tools } = aiSdkSetup(baseURL);
  return async (prompt, turns): Promise<SessionOutcome> => {
    let failure: unknown;
    const result = streamText({
      model,
      tools,
      system: INSTRUCTIONS,
      prompt,
      stopWhen: stepCountIs(turns + 2),
      onError: ({ error }) => {
        failure = error;
      },
    });
    let events = 0;
    for await (const _part of result.fullStream) events++;
    if (failure !== undefined) throw failure;
    return { finalText: await result.text, events };
  };
};
