import { resolve } from 'node:path';
import type { SessionStore } from '@agent/protocol';
import { errorMessage } from '@agent/protocol/util';
import { openRunWorker, type WorkerAgent } from '@agent/queue';
import { type AgentRunner, createAgentRunner } from '@agent/runtime';
import type { WorkerConfig } from './worker-options.js';

/** The providers of every model an agent's run may call: its first model and its fallbacks (`openai/gpt-4o` -> `openai`). */
function modelProviders(runner: AgentRunner): string[] {
  const providers = runner.summary.models
    .filter((model) => model.includes('/'))
    .map((model) => model.slice(0, model.indexOf('/')));
  return [...new Set(providers)];
}

/**
 * Loads each agent file with the worker's session store. A file that does not load is said on
 * stderr and kept as a load failure: the jobs this worker then cannot run fail once with it (a
 * poison job does not wait for a worker that will never come).
 */
async function loadWorkerAgents(
  config: WorkerConfig,
  sessionStore: SessionStore,
): Promise<{ runners: AgentRunner[]; loadFailures: string[] }> {
  const runners: AgentRunner[] = [];
  const loadFailures: string[] = [];
  for (const file of config.agents) {
    try {
      runners.push(await createAgentRunner(resolve(file), { configPath: config.agentConfig, sessionStore }));
    } catch (error) {
      loadFailures.push(`${file}: ${errorMessage(error)}`);
    }
  }
  return { runners, loadFailures };
}

/**
 * `agent-server worker`: opens the queue's worker and its shared Redis session store, loads the
 * agent files with that store, and runs jobs until `stop`.
 */
export async function startWorker(config: WorkerConfig, log: (line: string) => void) {
  const worker = await openRunWorker({
    url: config.url,
    ...(config.queueName === undefined ? {} : { name: config.queueName }),
    concurrency: config.concurrency,
    providerCaps: config.providerCaps,
    lockMs: config.lockSeconds * 1000,
    maxMoves: config.maxMoves,
    onLog: log,
  });
  const { runners, loadFailures } = await loadWorkerAgents(config, worker.sessionStore);
  for (const failure of loadFailures) {
    log(`agent-server worker: an agent file did not load; jobs for it fail with this: ${failure}`);
  }
  const byName = new Map<string, WorkerAgent>();
  for (const runner of runners) {
    byName.set(runner.summary.toolName, { agent: runner, providers: modelProviders(runner) });
  }
  worker.start({ get: (name) => byName.get(name), loadFailures });
  const served = byName.size === 0 ? 'no agent' : [...byName.keys()].join(', ');
  log(`agent-server worker ${worker.id}: taking jobs (${config.concurrency} at once) for ${served}`);
  return {
    worker,
    async stop(drainMs: number) {
      await worker.stop(drainMs);
      await Promise.allSettled(runners.map((runner) => runner.close()));
    },
  };
}
