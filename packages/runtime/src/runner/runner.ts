import { dirname, resolve } from 'node:path';
import type { McpLogEntry } from '@agent/mcp';
import type { AgentEventMeta } from '@agent/protocol';
import { promptFactsProblem } from '../agent-file/prompt-variables.js';
import { type RunSettings, readRunSettings } from '../agent-file/setting-overrides.js';
import { layerSettings, pickSettings } from '../agent-file/settings.js';
import type { AgentRunner, RunAgentFileOptions } from '../api.js';
import { openRuntimeCache, type RuntimeCache } from '../cache/runtime-cache.js';
import { type ResolvedConfig, resolveConfig } from '../config/layers.js';
import { DEFAULT_MAX_CONCURRENT_SUB_AGENTS } from '../config/schema.js';
import { problemsError, RuntimeError } from '../errors.js';
import { cachingTargetOptions, TargetBuilder } from '../models/build-targets.js';
import { runAgentChain } from '../orchestration/run-chain.js';
import { type AgentTree, loadAgentTree } from '../registry/registry.js';
import { summarizeAgent } from '../registry/summary.js';
import type { PreparedRunner } from '../session-run/session-request.js';
import { startA2aAgents } from '../tools/a2a-agents.js';
import { startMcpServers } from '../tools/build-tools.js';
import { startHttpApis } from '../tools/http-apis.js';
import { LevelLimiter } from './limiter.js';
import type { RunScope } from './run-scope.js';
import { TopAgentRuns } from './runner-runs.js';

function redacted(error: unknown, config: ResolvedConfig): unknown {
  if (!(error instanceof RuntimeError)) return error;
  const message = config.redact(error.message);
  if (message === error.message) return error;
  return new RuntimeError({
    kind: error.kind,
    message,
    ...(error.file === undefined ? {} : { file: error.file }),
    ...(error.line === undefined ? {} : { line: error.line }),
    ...(error.field === undefined
      ? {}
      : {
          setting: {
            field: error.field,
            value: typeof error.value === 'string' ? config.redact(error.value) : error.value,
            allowed: error.allowed ?? '',
          },
        }),
  });
}

/**
 * The MCP servers' log lines to every run going on: errors and warnings always, the rest at TRC
 * with --trace-mcp.
 */
function mcpLogBroadcast(
  active: ReadonlySet<{ scope: RunScope; meta: AgentEventMeta }>,
  trace: { mcp: boolean },
): (entry: McpLogEntry) => void {
  return (entry) => {
    const severity =
      entry.level === 'error' ? 'ERR' : entry.level === 'warn' ? 'WRN' : trace.mcp ? 'TRC' : undefined;
    if (severity === undefined) return;
    for (const run of active) {
      run.scope.log(
        {
          severity,
          direction: 'response',
          type: 'tool',
          remoteIdentifier: `mcp:${entry.server}`,
          message: entry.message,
        },
        run.meta,
      );
    }
  };
}

/** Every model client of the tree, built now so a bad provider setting fails before anything starts. */
function checkedTargets(
  tree: AgentTree,
  config: ResolvedConfig,
  clientFactory: RunAgentFileOptions['clientFactory'],
): TargetBuilder {
  const targets = new TargetBuilder(config, clientFactory);
  for (const definition of tree.agents.values()) {
    const { caching } = layerSettings(definition.settings, pickSettings(config.defaults));
    const options = cachingTargetOptions(caching);
    targets.targets(tree.models.get(definition.path) ?? [], options);
    targets.targets(definition.toolOutputModels ?? [], options);
  }
  return targets;
}

/** The agent tree of the top file (with `models` / `topModels` from the options); its problems thrown as one error. */
function loadRunnerTree(
  file: string,
  config: ResolvedConfig,
  cwd: string,
  options: RunAgentFileOptions,
): AgentTree {
  const { tree, problems } = loadAgentTree(file, config, {
    cwd,
    ...(options.models === undefined ? {} : { models: options.models }),
    ...(options.topModels === undefined ? {} : { topModels: options.topModels }),
  });
  if (tree === undefined) throw problemsError(problems);
  return tree;
}

/**
 * Starts the MCP servers the sessions share; a `shared: false` server is started by each session
 * that uses it (session-runner.ts). When one cannot start, the cache opened before them is closed.
 */
async function startSharedServers(
  servers: readonly string[],
  config: ResolvedConfig,
  onLog: (entry: McpLogEntry) => void,
  signal: AbortSignal | undefined,
  cache: RuntimeCache | undefined,
): Promise<Awaited<ReturnType<typeof startMcpServers>>> {
  try {
    const shared = servers.filter((name) => config.mcpServers.get(name)?.value.shared !== false);
    return await startMcpServers(shared, config, { onLog, ...(signal === undefined ? {} : { signal }) });
  } catch (error) {
    await cache?.close();
    throw error;
  }
}

/** Resolves the config, loads the tree, builds every client and starts the MCP servers. */
export async function prepareRunner(
  path: string,
  options: RunAgentFileOptions = {},
): Promise<PreparedRunner> {
  const cwd = resolve(options.cwd ?? process.cwd());
  const file = resolve(cwd, path);
  const config = resolveConfig({ ...options, cwd }, dirname(file));
  const runSettings: RunSettings = readRunSettings(options);
  const factsProblem =
    options.promptFacts === undefined ? undefined : promptFactsProblem(options.promptFacts);
  if (factsProblem !== undefined) throw new RuntimeError({ kind: 'configuration', message: factsProblem });
  const active = new Set<{ scope: RunScope; meta: AgentEventMeta }>();
  const trace = { llm: options.traceLlm === true, mcp: options.traceMcp === true };
  const broadcast = mcpLogBroadcast(active, trace);
  try {
    const tree = loadRunnerTree(file, config, cwd, options);
    const targets = checkedTargets(tree, config, options.clientFactory);
    const servers = [...new Set([...tree.agents.values()].flatMap((d) => d.tools.map((t) => t.name)))];
    // HTTP APIs first: a document that cannot load fails before any cache or server is opened.
    const http = await startHttpApis(
      servers,
      config,
      options.signal === undefined ? {} : { signal: options.signal },
    );
    const a2a = await startA2aAgents(servers, config);
    const cache = await openRuntimeCache(tree, config, servers, runSettings);
    const mcp = await startSharedServers(servers, config, broadcast, options.signal, cache);
    const limiter = new LevelLimiter(
      config.defaults.maxConcurrentSubAgents ?? DEFAULT_MAX_CONCURRENT_SUB_AGENTS,
    );
    return {
      context: {
        tree,
        config,
        targets,
        mcp,
        http,
        a2a,
        limiter,
        cwd,
        runSettings,
        run: runAgentChain,
        ...(options.sessionHooks === undefined ? {} : { hooks: options.sessionHooks }),
        startPrivateServers: (names, signal) =>
          startMcpServers(names, config, { onLog: broadcast, ...(signal === undefined ? {} : { signal }) }),
        ...(cache === undefined ? {} : { cache }),
      },
      active,
      trace,
    };
  } catch (error) {
    throw redacted(error, config);
  }
}

/**
 * Loads an agent tree, builds its model clients and starts its MCP servers once; `run` runs the
 * top agent as many times as wanted (concurrently too). Throws `RuntimeError` when the tree
 * cannot load.
 */
export async function createAgentRunner(
  path: string,
  options: RunAgentFileOptions = {},
): Promise<AgentRunner> {
  const prepared = await prepareRunner(path, options);
  const { tree } = prepared.context;
  const runs = new TopAgentRuns(prepared, options);
  return {
    summary: summarizeAgent(
      tree.root,
      tree.root.agents.map((ref) => tree.agents.get(ref.path)),
      tree.models.get(tree.root.path),
      (agentPath) => tree.agents.get(agentPath),
    ),
    run: (input, runOptions) => runs.run(input, runOptions),
    resume: (sessionId, resumeOptions) => runs.resume(sessionId, resumeOptions),
    storedSession: (sessionId) => runs.storedSession(sessionId),
    close: () => runs.close(),
  };
}
