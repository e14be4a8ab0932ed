#!/usr/bin/env node
import { format } from 'node:util';
import { AgentError } from '@agent/protocol';
import { errorMessage } from '@agent/protocol/util';
import type { RunQueue } from '@agent/queue';
import { snapshotKeySettings, telemetrySettings } from '@agent/runtime';
import { startOtelExport } from '@agent/telemetry/export';
import { CommanderError } from 'commander';
import { loadAgents, queuedCatalog } from './agent-catalog.js';
import { nameRouteAgents } from './ai-agent-slack.js';
import { parseServerArgs } from './cli-options.js';
import type { AgentMetrics } from './metrics.js';
import type { MetricsServer } from './metrics-server.js';
import type { ServerConfig } from './server-config.js';
import { startHeadends } from './start-headends.js';
import type { RunningHeadend } from './start-slack.js';
import { parseWorkerArgs } from './worker-options.js';

const log = (line: string) => process.stderr.write(`${line}\n`);

// stdout may carry MCP over stdio: anything a dependency prints goes to stderr instead.
for (const method of ['log', 'info', 'debug'] as const) {
  console[method] = (...args: unknown[]) => process.stderr.write(`${format(...args)}\n`);
}

/** Parses argv with `parse`; a bad flag is said on stderr and ends the process with 2. */
function parseOrExit<T>(parse: () => T): T | number {
  try {
    return parse();
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    return configExit(error, 'agent-server');
  }
}

/** A configuration error is said on stderr and ends the process with 2; others are thrown on. */
function configExit(error: unknown, who: string): number {
  if (!AgentError.is(error, 'configuration')) throw error;
  log(`${who}: ${error.message}`);
  return 2;
}

/**
 * The fleet's session store, its snapshot keys from agent.json's `sessions` when set there (else
 * AGENT_SNAPSHOT_KEY, else the key file). A key that is not the fleet's exits 2 with the reason.
 */
async function openFleetSessions(url: string, config: ServerConfig) {
  const keySettings = snapshotKeySettings({
    ...(config.agentConfig === undefined ? {} : { configPath: config.agentConfig }),
    ...(config.agents[0] === undefined ? {} : { agentFile: config.agents[0] }),
  });
  const { openQueueSessionStore } = await import('@agent/queue');
  return openQueueSessionStore(url, keySettings === undefined ? {} : { keySettings }).catch(
    (error: unknown) => configExit(error, 'agent-server'),
  );
}

/** Installs the one shutdown path for SIGTERM / SIGINT: a second signal exits at once. */
function onShutdown(stop: (signal: string) => Promise<void>): (signal: string) => void {
  let stopping = false;
  const handle = (signal: string) => {
    if (stopping) {
      log(`agent-server: ${signal} again, exiting now`);
      process.exit(1);
    }
    stopping = true;
    void stop(signal).then(() => process.exit(0));
  };
  process.on('SIGTERM', () => handle('SIGTERM'));
  process.on('SIGINT', () => handle('SIGINT'));
  return handle;
}

/** `agent-server worker`: runs queued sessions until SIGTERM hands the unfinished ones back. */
async function worker(): Promise<number> {
  const config = parseOrExit(() => parseWorkerArgs(process.argv.slice(3), process.env));
  if (typeof config === 'number') return config;
  // A worker whose snapshot key is not the fleet's stops here (2), before it takes a job.
  const { startWorker } = await import('./start-worker.js');
  const started = await startWorker(config, log).catch((error: unknown) =>
    configExit(error, 'agent-server worker'),
  );
  if (typeof started === 'number') return started;
  onShutdown(async (signal) => {
    log(
      `agent-server worker: ${signal}: no new jobs; ${started.worker.running} running get ${config.drainSeconds}s, then move`,
    );
    await started.stop(config.drainSeconds * 1000);
    log('agent-server worker: stopped');
  });
  return -1;
}

/** OpenTelemetry export (agent.json's `telemetry` or OTEL_*), set up before any run. */
async function startTelemetry(config: ServerConfig) {
  const otel = await startOtelExport(
    telemetrySettings({
      ...(config.agentConfig === undefined ? {} : { configPath: config.agentConfig }),
      ...(config.agents[0] === undefined ? {} : { agentFile: config.agents[0] }),
    }),
    process.env,
    'agent-server',
  );
  if (otel !== undefined) log(`agent-server: traces go to ${otel.target} (OTLP/HTTP)`);
  return otel;
}

/** The shared run queue of `--queue redis://`, when there is one (bullmq and ioredis load only then). */
async function openRunQueue(config: ServerConfig): Promise<RunQueue | undefined> {
  if (config.runQueue === undefined) return undefined;
  const { createRunQueue } = await import('@agent/queue');
  return createRunQueue({
    url: config.runQueue.url,
    ...(config.runQueue.name === undefined ? {} : { name: config.runQueue.name }),
    ...(config.runQueue.maxWaiting === undefined ? {} : { maxWaiting: config.runQueue.maxWaiting }),
  });
}

/** The metrics of `--metrics` (prom-client), loaded only when asked for. */
async function openMetrics(config: ServerConfig): Promise<AgentMetrics | undefined> {
  if (config.metrics === undefined) return undefined;
  const [{ AgentMetrics }, { knownMetricLabels }] = await Promise.all([
    import('./metrics.js'),
    import('./metric-labels.js'),
  ]);
  return new AgentMetrics(await knownMetricLabels(config.agents, config.agentConfig));
}

/** The viewer of `--viewer`, its code loaded only when asked for. */
async function openViewer(config: ServerConfig) {
  if (config.viewer === undefined) return undefined;
  const { startViewer } = await import('./start-viewer.js');
  return startViewer(config, log);
}

/** Serves `metrics` on `port`, its queue gauges reading the running headends and the run queue. */
async function serveMetrics(
  metrics: AgentMetrics,
  port: number,
  running: readonly RunningHeadend[],
  queue: RunQueue | undefined,
): Promise<MetricsServer> {
  for (const headend of running)
    if (headend.admission !== undefined)
      metrics.watchAdmission({ name: headend.name, admission: headend.admission });
  if (queue !== undefined) metrics.watchRunQueue(queue);
  const { startMetricsServer } = await import('./metrics-server.js');
  const metricsServer = await startMetricsServer(metrics.registry, port);
  log(`agent-server: metrics listening on ${metricsServer.url}`);
  return metricsServer;
}

async function main(): Promise<number> {
  if (process.argv[2] === 'worker') return worker();
  const config = parseOrExit(() => parseServerArgs(process.argv.slice(2), process.env));
  if (typeof config === 'number') return config;
  const otel = await startTelemetry(config);
  // On a queue the sessions are the workers': the face reads them from the queue's Redis.
  const sessionStore =
    config.runQueue === undefined ? undefined : await openFleetSessions(config.runQueue.url, config);
  if (typeof sessionStore === 'number') return sessionStore;
  const agents = await loadAgents(config.agents, config.agentConfig, sessionStore && { sessionStore });
  if (config.slack !== undefined && config.slackAgentFiles !== undefined) {
    const names = agents.runners.map((runner) => runner.summary.toolName);
    config.slack = nameRouteAgents(config.slack, config.agents, names);
  }
  for (const note of config.slackNotes ?? []) log(`agent-server: ${note}`);
  const metrics = await openMetrics(config);
  const queue = await openRunQueue(config);
  const ran = queue === undefined ? agents.catalog : queuedCatalog(agents.catalog, queue);
  const viewer = await openViewer(config);
  const observed = viewer === undefined ? ran : viewer.observe(ran);
  const catalog = metrics === undefined ? observed : metrics.catalog(observed);
  const { running, stdio } = await startHeadends(config, catalog, log, queue?.admission);
  const metricsServer =
    metrics === undefined || config.metrics === undefined
      ? undefined
      : await serveMetrics(metrics, config.metrics, running, queue);
  if (queue !== undefined) log(`agent-server: runs go to the queue ${queue.name}`);
  const stop = onShutdown(async (signal) => {
    log(`agent-server: ${signal}: draining (up to ${config.drainSeconds}s)`);
    await Promise.allSettled(running.map((headend) => headend.drain(config.drainSeconds * 1000)));
    await viewer?.close();
    await queue?.close();
    await agents.close();
    await metricsServer?.close();
    await sessionStore?.close();
    // The spans of the last runs are exported before the process exits.
    await otel?.shutdown();
    log('agent-server: stopped');
  });
  if (stdio !== undefined) void stdio.closed.then(() => stop('stdin closed'));
  return -1;
}

main().then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (error: unknown) => {
    log(`agent-server: ${errorMessage(error)}`);
    process.exit(1);
  },
);
