import { resolve } from 'node:path';
import { type AgentCatalog, createCatalog, type ServedAgent } from '@agent/headends';
import { type AgentRunner, createAgentRunner } from '@agent/runtime';

/** An `AgentRunner` as a headend's `ServedAgent` (its name is the agent's toolName). */
export function servedAgent(runner: AgentRunner): ServedAgent {
  const { summary } = runner;
  return {
    info: {
      name: summary.toolName,
      description: summary.description,
      outputFormat: summary.outputFormat,
      inputSchema: summary.inputSchema,
      outputSchema: summary.outputSchema,
      orchestration: summary.orchestration,
    },
    run: (prompt, options) => runner.run(prompt, options),
    // Paused runs are stored in agent.json's session store; the headends resume them from there.
    sessions: {
      find: (sessionId) => runner.storedSession(sessionId),
      resume: (sessionId, options) => runner.resume(sessionId, options),
    },
  };
}

export interface LoadedAgents {
  catalog: AgentCatalog;
  close(): Promise<void>;
}

/** Loads every agent file once; the runners stay open for the server's life. */
export async function loadAgents(files: readonly string[], agentConfig?: string): Promise<LoadedAgents> {
  const runners: AgentRunner[] = [];
  try {
    for (const file of files) {
      runners.push(await createAgentRunner(resolve(file), { configPath: agentConfig }));
    }
    return {
      catalog: createCatalog(runners.map(servedAgent)),
      close: async () => {
        await Promise.allSettled(runners.map((runner) => runner.close()));
      },
    };
  } catch (error) {
    await Promise.allSettled(runners.map((runner) => runner.close()));
    throw error;
  }
}
