// `@agent/core` `run` over `@agent/providers` (`type: 'openai'`, the official `openai` client
// underneath), one `tool()` with the local tool (its JSON Schema validated by the core).

import type { Agent, RunOptions } from '@agent/core';
import * as thisCore from '@agent/core';
import * as thisProviders from '@agent/providers';
import { INSTRUCTIONS, lookup, TOOL_DESCRIPTION, TOOL_NAME, TOOL_SCHEMA } from '../script.js';
import { benchModelClient } from './bench-client.js';
import type { ContenderFactory, SessionOutcome, SessionRunner } from './types.js';

/** The core and providers a session runs on: this checkout's, or another built one's. */
export interface CoreModules {
  core: Pick<typeof thisCore, 'defineAgent' | 'run' | 'tool'>;
  providers: Pick<typeof thisProviders, 'createModelClient'>;
}

/** How one session is run: `run` as is, or wrapped (the traced contender). */
export type CoreRun = (
  agent: Parameters<typeof thisCore.run>[0],
  prompt: string,
  options: RunOptions,
) => ReturnType<typeof thisCore.run>;

/** The agent-core session, with `runWith` running each one (plain `run` by default). */
export function coreSessions(
  baseURL: string,
  runWith: CoreRun = thisCore.run,
  { core, providers }: CoreModules = { core: thisCore, providers: thisProviders },
): SessionRunner {
  const lookupTool = core.tool({
    name: TOOL_NAME,
    description: TOOL_DESCRIPTION,
    parameters: TOOL_SCHEMA,
    execute: ({ key }) => lookup(key),
  });
  const client = benchModelClient(baseURL, providers);
  // Defined once per session length and run many times, as an application does.
  const agents = new Map<number, Agent>();
  const agentFor = (turns: number): Agent => {
    let agent = agents.get(turns);
    if (agent === undefined) {
      agent = core.defineAgent({
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
