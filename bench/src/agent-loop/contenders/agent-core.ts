// `@agent/core` `run` over `@agent/providers` (`type: 'openai'`, the official `openai` client
// underneath), one `tool()` with the local tool (its JSON Schema validated by the core).
import { type Agent, defineAgent, type RunOptions, run, tool } from '@agent/core';
import { createModelClient } from '@agent/providers';
import { INSTRUCTIONS, lookup, MODEL, TOOL_DESCRIPTION, TOOL_NAME, TOOL_SCHEMA } from '../script.js';
import type { ContenderFactory, SessionOutcome, SessionRunner } from './types.js';

const lookupTool = tool({
  name: TOOL_NAME,
  description: TOOL_DESCRIPTION,
  parameters: TOOL_SCHEMA,
  execute: ({ key }) => lookup(key),
});

/** How one session is run: `run` as is, or wrapped (the traced contender). */
export type CoreRun = (
  agent: Parameters<typeof run>[0],
  prompt: string,
  options: RunOptions,
) => ReturnType<typeof run>;

/** The agent-core session, with `runWith` running each one (plain `run` by default). */
export function coreSessions(baseURL: string, runWith: CoreRun = run): SessionRunner {
  const client = createModelClient({
    type: 'openai',
    provider: 'openai',
    model: MODEL,
    apiKey: 'bench-key',
    baseURL,
  });
  // Defined once per session length and run many times, as an application does.
  const agents = new Map<number, Agent>();
  const agentFor = (turns: number): Agent => {
    let agent = agents.get(turns);
    if (agent === undefined) {
      agent = defineAgent({
        model: client,
        instructions: INSTRUCTIONS,
        tools: [lookupTool],
        maxTurns: turns + 2,
        output: { format: 'text' },
      });
      agents.set(turns, agent);
    }
    return agent;
  };
  return async (prompt, turns): Promise<SessionOutcome> => {
    let events = 0;
    const agent = agentFor(turns);
    const result = await runWith(agent, prompt, {
      onEvent: () => {
        events++;
      },
    });
    if (!result.success) throw new Error(`agent-core: ${result.exitCode}: ${result.error}`);
    return { finalText: result.finalReport.content ?? '', events };
  };
}

export const createAgentCore: ContenderFactory = (baseURL) => coreSessions(baseURL);
