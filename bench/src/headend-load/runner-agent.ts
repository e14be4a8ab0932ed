// The agent as agent-server serves it: an agent file loaded once by @agent/runtime's
// createAgentRunner (config layers, session setup, telemetry hooks, run bookkeeping), each run
// answered by a fresh scripted model through the runner's `clientFactory` testing hook.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServedAgent } from '@agent/headends';
import type { ModelClient } from '@agent/protocol';
import { createAgentRunner } from '@agent/runtime';
import { benchModel } from './script.js';

export interface RunnerAgent {
  agent: ServedAgent;
  close(): Promise<void>;
}

/** A temp dir with an `agent.json` naming one provider (never contacted) and the agent file. */
function agentTree(): string {
  const dir = mkdtempSync(join(tmpdir(), 'bench-headend-runner-'));
  mkdirSync(join(dir, 'empty'));
  writeFileSync(
    join(dir, 'agent.json'),
    JSON.stringify({ providers: { local: { type: 'openai-compatible', baseURL: 'http://127.0.0.1:9/v1' } } }),
  );
  writeFileSync(
    join(dir, 'bench.ai'),
    '---\nmodels: [local/m]\ndescription: Streams a scripted answer.\n---\nYou answer questions.\n',
  );
  return dir;
}

/** The runner as a headend's agent, the way apps/server's `servedAgent` wraps it. */
export async function runnerAgent(count: <T>(session: Promise<T>) => Promise<T>): Promise<RunnerAgent> {
  const dir = agentTree();
  const model: ModelClient = {
    provider: 'scripted',
    model: 'scripted-model',
    stream: (request, options) => benchModel().stream(request, options),
  };
  try {
    const runner = await createAgentRunner(join(dir, 'bench.ai'), {
      cwd: dir,
      env: {},
      userConfigDir: join(dir, 'empty'),
      systemConfigDir: join(dir, 'empty'),
      aiAgentHomeDir: join(dir, 'empty'),
      aiAgentSystemDir: join(dir, 'empty'),
      clientFactory: () => model,
    });
    const { summary } = runner;
    return {
      agent: {
        info: { name: 'bench', description: summary.description, outputFormat: summary.outputFormat },
        run: (input, options) => count(runner.run(input, options)),
      },
      close: async () => {
        await runner.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}
