import { openRunWorker, type QueueAgent } from '@agent/queue';
import { type AgentRunner, telemetrySettings } from '@agent/runtime';
import { type OtelExport, startOtelExport } from '@agent/telemetry/export';
import { loadAgents } from './agent-catalog.js';
import type { WorkerConfig } from './worker-options.js';

/** The provider of an agent's first model (`openai/gpt-4o` -> `openai`), for the fleet-wide caps. */
function primaryProvider(runner: AgentRunner): string | undefined {
  const first = runner.summary.models[0];
  return first?.includes('/') ? first.slice(0, first.indexOf('/')) : undefined;
}

/**
 * `agent-server worker`: opens the queue's worker and its shared Redis session store, loads the
 * agent files with that store (a file that does not load stops the worker before it takes a
 * job), and runs jobs until `stop`.
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
  let agents: Awaited<ReturnType<typeof loadAgents>>;
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
    if (otel !== undefined) log(`agent-server worker: traces go to ${otel.target} (OTLP/HTTP)`);
    agents = await loadAgents(config.agents, config.agentConfig, { sessionStore: worker.sessionStore });
  } catch (error) {
    await worker.stop(0);
    await otel?.shutdown();
    throw error;
  }
  const byName = new Map<string, { agent: QueueAgent; provider?: string }>();
  for (const runner of agents.runners) {
    const provider = primaryProvider(runner);
    byName.set(runner.summary.toolName, { agent: runner, ...(provider === undefined ? {} : { provider }) });
  }
  worker.start({ get: (name) => byName.get(name) });
  log(
    `agent-server worker ${worker.id}: taking jobs (${config.concurrency} at once) for ${[...byName.keys()].join(', ')}`,
  );
  return {
    worker,
    async stop(drainMs: number) {
      await worker.stop(drainMs);
      await agents.close();
      await otel?.shutdown();
    },
  };
}
