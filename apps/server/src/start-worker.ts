import { resolve } from 'node:path';
import type { SessionStore } from '@agent/protocol';
import { errorMessage } from '@agent/protocol/util';
import { openRunWorker, type WorkerAgent } from '@agent/queue';
import {
  type AgentRunner,
  createAgentRunner,
  snapshotKeySettings,
  telemetrySettings,
  validateAgentFile,
} from '@agent/runtime';
import { type OtelExport, startOtelExport } from '@agent/telemetry/export';
import type { WorkerConfig } from './worker-options.js';

/**
 * The providers of every model a run of the file may call (`openai/gpt-4o` -> `openai`): each
 * agent of its tree (the top agent, sub-agents, advisors, routes, handoff), first models and
 * fallbacks, as `validateAgentFile` lists them.
 */
async function treeProviders(file: string, agentConfig: string | undefined): Promise<string[]> {
  const { agents } = await validateAgentFile(file, { configPath: agentConfig });
  const providers = agents
    .flatMap((agent) => agent.models)
    .filter((model) => model.includes('/'))
    .map((model) => model.slice(0, model.indexOf('/')));
  return [...new Set(providers)].sort();
}

/**
 * Loads each agent file with the worker's session store. A file that does not load is said on
 * stderr and kept as a load failure: the jobs this worker then cannot run fail once with it (a
 * poison job does not wait for a worker that will never come).
 */
async function loadWorkerAgents(
  config: WorkerConfig,
  sessionStore: SessionStore,
): Promise<{ runners: AgentRunner[]; served: Map<string, WorkerAgent>; loadFailures: string[] }> {
  const runners: AgentRunner[] = [];
  const served = new Map<string, WorkerAgent>();
  const loadFailures: string[] = [];
  for (const file of config.agents) {
    try {
      const runner = await createAgentRunner(resolve(file), { configPath: config.agentConfig, sessionStore });
      runners.push(runner);
      const providers = await treeProviders(resolve(file), config.agentConfig);
      served.set(runner.summary.toolName, { agent: runner, providers });
    } catch (error) {
      loadFailures.push(`${file}: ${errorMessage(error)}`);
    }
  }
  return { runners, served, loadFailures };
}

/**
 * `agent-server worker`: opens the queue's worker and its shared Redis session store, loads the
 * agent files with that store, and runs jobs until `stop`.
 */
export async function startWorker(config: WorkerConfig, log: (line: string) => void) {
  const keySettings = snapshotKeySettings({
    ...(config.agentConfig === undefined ? {} : { configPath: config.agentConfig }),
    ...(config.agents[0] === undefined ? {} : { agentFile: config.agents[0] }),
  });
  const worker = await openRunWorker({
    url: config.url,
    ...(keySettings === undefined ? {} : { keySettings }),
    ...(config.queueName === undefined ? {} : { name: config.queueName }),
    concurrency: config.concurrency,
    providerCaps: config.providerCaps,
    lockMs: config.lockSeconds * 1000,
    maxMoves: config.maxMoves,
    onLog: log,
  });
  let otel: OtelExport | undefined;
  try {
    // OpenTelemetry export (agent.json's `telemetry` or OTEL_*), as the server sets it up.
    otel = await startOtelExport(
      telemetrySettings({
        ...(config.agentConfig === undefined ? {} : { configPath: config.agentConfig }),
        ...(config.agents[0] === undefined ? {} : { agentFile: config.agents[0] }),
      }),
      process.env,
      'agent-server-worker',
    );
  } catch (error) {
    await worker.stop(0);
    throw error;
  }
  if (otel !== undefined) log(`agent-server worker: traces go to ${otel.target} (OTLP/HTTP)`);
  const { runners, served: byName, loadFailures } = await loadWorkerAgents(config, worker.sessionStore);
  for (const failure of loadFailures) {
    log(`agent-server worker: an agent file did not load; jobs for it fail with this: ${failure}`);
  }
  for (const [name, served] of byName) {
    const capped = (served.providers ?? []).filter((provider) => config.providerCaps[provider] !== undefined);
    if (capped.length > 0)
      log(`agent-server worker: a session of ${name} takes a slot of ${capped.join(', ')}`);
  }
  worker.start({ get: (name) => byName.get(name), loadFailures });
  const served = byName.size === 0 ? 'no agent' : [...byName.keys()].join(', ');
  log(`agent-server worker ${worker.id}: taking jobs (${config.concurrency} at once) for ${served}`);
  return {
    worker,
    async stop(drainMs: number) {
      await worker.stop(drainMs);
      await Promise.allSettled(runners.map((runner) => runner.close()));
      // The spans of the last runs are exported before the process exits.
      await otel?.shutdown();
    },
  };
}
