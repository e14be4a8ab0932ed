import { randomUUID } from 'node:crypto';
import { dirname, resolve } from 'node:path';
import { checkConversationId, checkSessionId } from '@agent/cache';
import type { McpLogEntry } from '@agent/mcp';
import type {
  AgentEventMeta,
  AgentResult,
  ConversationExchange,
  ExpectedOutput,
  LogEntry,
  SessionSnapshot,
  SessionStore,
} from '@agent/protocol';
import { errorMessage } from '@agent/protocol/util';
import type { AgentDefinition } from './agent-file/definition.js';
import { layerSettings, pickSettings } from './agent-file/settings.js';
import type { AgentRunner, RunAgentFileOptions, RunInput, RunOptions } from './api.js';
import { cachingTargetOptions, TargetBuilder } from './build-targets.js';
import { startMcpServers } from './build-tools.js';
import { openRuntimeCache } from './cache/runtime-cache.js';
import { type ResolvedConfig, resolveConfig } from './config/layers.js';
import { DEFAULT_MAX_CONCURRENT_SUB_AGENTS } from './config/schema.js';
import { problemsError, RuntimeError } from './errors.js';
import { LevelLimiter } from './limiter.js';
import { runAgentChain } from './orchestration/run-chain.js';
import { loadAgentTree } from './registry.js';
import { RunScope } from './run-scope.js';
import type { RunnerContext, SessionRequest } from './session-runner.js';
import { RunConversation } from './sessions/conversations.js';
import { RunnerSessions } from './sessions/runner-sessions.js';
import { type RunSettings, readSettingValues } from './setting-overrides.js';
import { summarizeAgent } from './summary.js';

/** The output contract of a run: `--format` / `--schema` over the file's `output`. */
export function runExpectedOutput(definition: AgentDefinition, options: RunOptions): ExpectedOutput {
  const format = options.format ?? (options.schema !== undefined ? 'json' : definition.output.format);
  const schema = options.schema ?? (format === 'json' ? definition.output.schema : undefined);
  return schema === undefined ? { format } : { format, schema };
}

/** A result for a run that could not start (`EXIT-CONFIGURATION`). */
export function configurationFailure(
  message: string,
  options: { onEvent?: RunOptions['onEvent']; headendId?: string; agentPath?: string },
): AgentResult {
  const sessionId = randomUUID();
  const agentPath = options.agentPath ?? 'main';
  const entry: LogEntry = {
    timestamp: Date.now(),
    severity: 'ERR',
    direction: 'response',
    type: 'llm',
    remoteIdentifier: 'agent:EXIT-CONFIGURATION',
    message,
    agentPath,
    ...(options.headendId === undefined ? {} : { headendId: options.headendId }),
  };
  const meta: AgentEventMeta = {
    isMaster: true,
    isFinal: false,
    sessionId,
    agentPath,
    ...(options.headendId === undefined ? {} : { headendId: options.headendId }),
  };
  try {
    options.onEvent?.({ type: 'log', entry }, meta);
  } catch {
    // The caller's listener failing changes nothing here.
  }
  return {
    success: false,
    exitCode: 'EXIT-CONFIGURATION',
    error: message,
    conversation: [],
    logs: [entry],
    accounting: [],
    sessionId,
  };
}

function redacted(error: unknown, config: ResolvedConfig): unknown {
  if (!(error instanceof RuntimeError)) return error;
  const message = config.redact(error.message);
  if (message === error.message) return error;
  return new RuntimeError({
    kind: error.kind,
    message,
    ...(error.file === undefined ? {} : { file: error.file }),
    ...(error.line === undefined ? {} : { line: error.line }),
  });
}

/** A runner's context plus the hooks its runs need (internal: tests build sessions from it). */
export interface PreparedRunner {
  context: RunnerContext;
  /** Active runs, for MCP log lines that arrive while they run. */
  active: Set<{ scope: RunScope; meta: AgentEventMeta }>;
  trace: { llm: boolean; mcp: boolean };
}

/** Resolves the config, loads the tree, builds every client and starts the MCP servers. */
export async function prepareRunner(
  path: string,
  options: RunAgentFileOptions = {},
): Promise<PreparedRunner> {
  const cwd = resolve(options.cwd ?? process.cwd());
  const file = resolve(cwd, path);
  const config = resolveConfig({ ...options, cwd }, dirname(file));
  const runSettings: RunSettings = {
    ...(options.overrides === undefined ? {} : { all: readSettingValues(options.overrides, '--override') }),
    ...(options.settings === undefined ? {} : { top: readSettingValues(options.settings, 'command line') }),
  };
  const active = new Set<{ scope: RunScope; meta: AgentEventMeta }>();
  const trace = { llm: options.traceLlm === true, mcp: options.traceMcp === true };
  const broadcast = (entry: McpLogEntry): void => {
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
  try {
    const { tree, problems } = loadAgentTree(file, config, {
      cwd,
      ...(options.models === undefined ? {} : { models: options.models }),
    });
    if (tree === undefined) throw problemsError(problems);
    const targets = new TargetBuilder(config, options.clientFactory);
    // Built now so a bad provider setting fails before anything starts (as the sessions will ask).
    for (const definition of tree.agents.values()) {
      const { caching } = layerSettings(definition.settings, pickSettings(config.defaults));
      const options = cachingTargetOptions(caching);
      targets.targets(tree.models.get(definition.path) ?? [], options);
      targets.targets(definition.toolOutputModels ?? [], options);
    }
    const servers = [...new Set([...tree.agents.values()].flatMap((d) => d.tools.map((t) => t.name)))];
    const cache = await openRuntimeCache(tree, config, servers);
    let mcp: Awaited<ReturnType<typeof startMcpServers>>;
    try {
      // A `shared: false` server is started by each session that uses it (session-runner.ts).
      const shared = servers.filter((name) => config.mcpServers.get(name)?.value.shared !== false);
      mcp = await startMcpServers(shared, config, {
        onLog: broadcast,
        ...(options.signal === undefined ? {} : { signal: options.signal }),
      });
    } catch (error) {
      await cache?.close();
      throw error;
    }
    const limiter = new LevelLimiter(
      config.defaults.maxConcurrentSubAgents ?? DEFAULT_MAX_CONCURRENT_SUB_AGENTS,
    );
    return {
      context: {
        tree,
        config,
        targets,
        mcp,
        limiter,
        cwd,
        runSettings,
        run: runAgentChain,
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
  const { context, active, trace } = await prepareRunner(path, options);
  const { config } = context;
  const { tree } = context;
  const summary = summarizeAgent(
    tree.root,
    tree.root.agents.map((ref) => tree.agents.get(ref.path)),
    tree.models.get(tree.root.path),
    (path) => tree.agents.get(path),
  );
  let closed = false;
  let closing: Promise<void> | undefined;
  const sessions = new RunnerSessions(config, tree.root.path, options.sessionStore);
  // Checkpoints and resume cover one session: an agent with advisors, a router or a handoff is a chain.
  const resumable = tree.root.orchestration === undefined;
  return {
    summary,
    async resume(sessionId, resumeOptions = {}) {
      const { approvals, ...runOptions } = resumeOptions;
      const merged: RunOptions = { ...pickRunOptions(options), ...runOptions };
      const fail = (message: string) =>
        configurationFailure(config.redact(message), { ...merged, agentPath: tree.root.toolName });
      if (closed) return fail('the agent runner was closed');
      if (!resumable)
        return fail(`${tree.root.file} has advisors, a router or a handoff: its runs cannot be resumed`);
      let store: SessionStore;
      let snapshot: SessionSnapshot | undefined;
      try {
        store = await sessions.store();
        snapshot = await store.load(sessionId);
      } catch (error) {
        return fail(`cannot resume session ${JSON.stringify(sessionId)}: ${errorMessage(error)}`);
      }
      if (snapshot === undefined) {
        return fail(
          `no session ${JSON.stringify(sessionId)} in the session store ${store.location} (never stored, or finished and expired)`,
        );
      }
      const conversation = RunConversation.fromLabels(sessions, snapshot.labels);
      return execute(
        '',
        merged,
        snapshot.sessionId,
        {
          resumeFrom: snapshot,
          ...(approvals === undefined ? {} : { approvals }),
          onCheckpoint: sessions.checkpointer(store, conversation?.labels()),
        },
        undefined,
        conversation,
      );
    },
    async storedSession(sessionId) {
      checkSessionId(sessionId);
      const snapshot = await (await sessions.store()).load(sessionId);
      if (snapshot === undefined) return undefined;
      return { snapshot, startedHere: snapshot.labels?.agentFile === tree.root.path };
    },
    async run(input, runOptions = {}) {
      const merged: RunOptions = { ...pickRunOptions(options), ...runOptions };
      const problem = runInputProblem(input, merged);
      if (problem !== undefined) {
        return configurationFailure(problem, { ...merged, agentPath: tree.root.toolName });
      }
      const { prompt, history } = typeof input === 'string' ? { prompt: input, history: undefined } : input;
      if (closed) {
        return configurationFailure('the agent runner was closed', {
          ...merged,
          agentPath: tree.root.toolName,
        });
      }
      const conversation =
        merged.conversationId === undefined
          ? undefined
          : new RunConversation(sessions, merged.conversationId, prompt);
      return execute(prompt, merged, merged.sessionId ?? randomUUID(), undefined, history, conversation);
    },
    close() {
      closed = true;
      closing ??= Promise.all([context.mcp.close(), context.cache?.close(), sessions.close()]).then(
        () => undefined,
      );
      return closing;
    },
  };

  /** One run of the top agent: a new one, or (`durable.resumeFrom`) a stored one continued. */
  async function execute(
    prompt: string,
    merged: RunOptions,
    sessionId: string,
    given: SessionRequest['durable'],
    history?: RunInputObject['history'],
    conversation?: RunConversation,
  ): Promise<AgentResult> {
    let exchanges: ConversationExchange[] = [];
    if (conversation !== undefined && given?.resumeFrom === undefined) {
      try {
        exchanges = await conversation.exchanges();
      } catch (error) {
        return configurationFailure(
          config.redact(`cannot read conversation ${conversation.id}: ${errorMessage(error)}`),
          { ...merged, agentPath: tree.root.toolName },
        );
      }
    }
    const scope = new RunScope(merged.onEvent, config.redact);
    const meta: AgentEventMeta = {
      isMaster: true,
      isFinal: false,
      sessionId,
      agentPath: tree.root.toolName,
      ...(merged.headendId === undefined ? {} : { headendId: merged.headendId }),
    };
    for (const warning of context.mcp.warnings) {
      scope.log(
        {
          severity: 'WRN',
          direction: 'response',
          type: 'tool',
          remoteIdentifier: `mcp:${warning.server}`,
          message: warning.message,
        },
        meta,
      );
    }
    const labels = conversation?.labels();
    const durable = resumable ? await durableOptions(merged, given, scope, meta, labels) : undefined;
    const handle = { scope, meta };
    active.add(handle);
    try {
      const result = await runAgentChain(context, {
        definition: tree.root,
        prompt,
        expectedOutput: runExpectedOutput(tree.root, merged),
        depth: 0,
        ...(merged.maxTurns === undefined ? {} : { overrides: { maxTurns: merged.maxTurns } }),
        ...(history === undefined ? {} : { conversationHistory: history }),
        ...(exchanges.length === 0 ? {} : { exchanges }),
        ...(merged.signal === undefined ? {} : { signal: merged.signal }),
        ...(merged.stopSignal === undefined ? {} : { stopSignal: merged.stopSignal }),
        ...(merged.headendId === undefined ? {} : { headendId: merged.headendId }),
        trace: { llm: merged.traceLlm ?? trace.llm, mcp: merged.traceMcp ?? trace.mcp },
        scope,
        sessionId,
        ...(durable === undefined ? {} : { durable }),
      });
      const kept = await sessions.keepPaused(result, durable?.onCheckpoint !== undefined, labels);
      await conversation?.record(kept, scope, meta);
      return scope.finish({ ...kept, finalAgentId: kept.finalAgentId ?? tree.root.toolName });
    } catch (error) {
      return configurationFailure(config.redact(errorMessage(error)), {
        ...merged,
        agentPath: tree.root.toolName,
      });
    } finally {
      active.delete(handle);
    }
  }

  /**
   * The session's checkpoint listener (a `durable` run, or a resumed one) and approver. A store
   * that cannot open turns checkpoints off for the run, with a warning: the run itself goes on.
   */
  async function durableOptions(
    merged: RunOptions,
    given: SessionRequest['durable'],
    scope: RunScope,
    meta: AgentEventMeta,
    labels: Record<string, string> | undefined,
  ): Promise<SessionRequest['durable']> {
    const out: NonNullable<SessionRequest['durable']> = { ...given };
    if (merged.approver !== undefined) out.approver = merged.approver;
    if (merged.durable === true && out.onCheckpoint === undefined) {
      try {
        out.onCheckpoint = sessions.checkpointer(await sessions.store(), labels);
      } catch (error) {
        scope.log(
          {
            severity: 'WRN',
            direction: 'response',
            type: 'llm',
            remoteIdentifier: 'agent:checkpoint',
            message: `the session store is unavailable, this run keeps no checkpoints: ${errorMessage(error)}`,
          },
          meta,
        );
      }
    }
    return Object.keys(out).length === 0 ? undefined : out;
  }
}

type RunInputObject = Exclude<RunInput, string>;

/** Why a run's input cannot be used, in words that say what is allowed; undefined when it can. */
function runInputProblem(input: RunInput, options: RunOptions): string | undefined {
  if (options.sessionId !== undefined) {
    try {
      checkSessionId(options.sessionId);
    } catch (error) {
      return errorMessage(error);
    }
  }
  if (options.conversationId !== undefined) {
    try {
      checkConversationId(options.conversationId);
    } catch (error) {
      return errorMessage(error);
    }
  }
  if ('conversationHistory' in options) {
    return 'conversationHistory is no longer a run option: pass the history with the prompt, run({ prompt, history })';
  }
  if (typeof input === 'string') return undefined;
  if (typeof input !== 'object' || input === null || typeof input.prompt !== 'string') {
    return 'the input must be a prompt string or { prompt: string, history?: ConversationMessage[] }';
  }
  if (input.history !== undefined && !Array.isArray(input.history)) {
    return 'history must be a list of conversation messages';
  }
  return undefined;
}

/** The per-run options given to `createAgentRunner`: defaults for every run. */
function pickRunOptions(options: RunAgentFileOptions): RunOptions {
  const {
    configPath,
    cwd,
    env,
    userConfigDir,
    systemConfigDir,
    models,
    clientFactory,
    sessionStore,
    ...run
  } = options;
  return run;
}
