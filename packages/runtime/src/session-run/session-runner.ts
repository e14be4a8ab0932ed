import { randomUUID } from 'node:crypto';
import { type AgentSessionConfig, createAgentSession } from '@agent/core';
import type { AgentEventMeta, AgentResult, ModelTarget } from '@agent/protocol';
import { traceSession } from '@agent/telemetry';
import type { AgentDefinition, ModelRef } from '../agent-file/definition.js';
import { expandPromptVariables, pickPromptFacts, promptVariables } from '../agent-file/prompt-variables.js';
import { type AgentSettings, layerSettings, pickSettings } from '../agent-file/settings.js';
import { runWithResponseCache } from '../cache/response-cache.js';
import { sessionGuardrails } from '../guardrails/session-guardrails.js';
import { cachingTargetOptions } from '../models/build-targets.js';
import type { RunScope } from '../runner/run-scope.js';
import type { McpTools } from '../tools/build-tools.js';
import type { RunnerContext, SessionRequest } from './session-request.js';
import { sessionTools } from './session-tool-list.js';
import { type SessionWrappers, sessionWrappers } from './session-wrappers.js';
import { type TraceSink, traceModelClient } from './tracing.js';

/** The in-process filesystem server (the MCP SDK), imported by the first extraction that reads. */
async function createReadGrepTools(root: string) {
  const { createInProcessFsProvider } = await import('@agent/mcp/fs-server');
  return createInProcessFsProvider({ root, tools: ['Read', 'Grep'], naming: 'bare' });
}

/** The tool-output settings of an agent that sets none: one object for every session. */
const DEFAULT_TOOL_OUTPUT: NonNullable<AgentSessionConfig['toolOutput']> = Object.freeze({
  createReadGrepTools,
});

/**
 * The tool-output settings for a session: on unless `enabled: false` (passed on as such: the core
 * would otherwise store with its defaults when `toolResponseMaxBytes` is set); Read/Grep
 * in-process for read-grep.
 */
function toolOutputConfig(
  settings: AgentSettings,
  modelTargets: (refs: readonly ModelRef[]) => ModelTarget[],
): NonNullable<AgentSessionConfig['toolOutput']> {
  if (settings.toolOutput === undefined) return DEFAULT_TOOL_OUTPUT;
  const { models, ...options } = settings.toolOutput;
  if (options.enabled === false) return { enabled: false };
  return {
    ...options,
    // `toolOutput.models`: the extraction calls use these instead of the agent's own models.
    ...(models === undefined || models.length === 0
      ? {}
      : { models: modelTargets(models.map((spec) => modelRefOf(spec))) }),
    createReadGrepTools,
  };
}

/** A `provider/model` string checked at load time (registry.ts), as a reference. */
function modelRefOf(spec: string): ModelRef {
  const slash = spec.indexOf('/');
  return { spec, provider: spec.slice(0, slash).trim(), model: spec.slice(slash + 1).trim() };
}

/** `null` settings ("do not send") are left out of the session config. */
function withoutNulls<T extends object>(settings: T): { [K in keyof T]: Exclude<T[K], null> } {
  return Object.fromEntries(Object.entries(settings).filter(([, value]) => value !== null)) as {
    [K in keyof T]: Exclude<T[K], null>;
  };
}

/** Builds and runs the session of one agent; `stopSignal` asks it for a final turn. */
export async function runAgentSession(ctx: RunnerContext, request: SessionRequest): Promise<AgentResult> {
  const own = await startPrivateServers(ctx, request.definition, request.signal);
  try {
    const config = buildSessionConfig(ctx, request, own);
    // Tracing: one check when it is off (no tracer provider, or not sampled), nothing else.
    const traced = traceSession(config, {
      name: config.name ?? request.definition.toolName,
      sessionId: config.sessionId ?? '',
      agentPath:
        config.parentAgentPath === undefined ? `${config.name}` : `${config.parentAgentPath}.${config.name}`,
    });
    const sessionConfig = traced?.config ?? config;
    const body = (): Promise<AgentResult> =>
      // A resumed session continues its snapshot: no cached answer stands for it.
      request.durable?.resumeFrom !== undefined
        ? runSession(sessionConfig, request.stopSignal)
        : runWithResponseCache(ctx, request, config, () => runSession(sessionConfig, request.stopSignal));
    return await (traced === undefined ? body() : traced.run(body));
  } finally {
    await own?.close();
  }
}

/** The `shared: false` MCP servers of an agent, started for one session. */
export async function startPrivateServers(
  ctx: RunnerContext,
  definition: AgentDefinition,
  signal?: AbortSignal,
): Promise<McpTools | undefined> {
  const names = definition.tools
    .map((ref) => ref.name)
    .filter((name) => ctx.config.mcpServers.get(name)?.value.shared === false);
  if (names.length === 0 || ctx.startPrivateServers === undefined) return undefined;
  return ctx.startPrivateServers(names, signal);
}

async function runSession(config: AgentSessionConfig, stop: AbortSignal | undefined): Promise<AgentResult> {
  const session = createAgentSession(config);
  if (stop === undefined) return session.run();
  const onStop = () => session.stop('stop');
  if (stop.aborted) onStop();
  else stop.addEventListener('abort', onStop, { once: true });
  try {
    return await session.run();
  } finally {
    stop.removeEventListener('abort', onStop);
  }
}

/** The session config of one agent: its models, MCP servers and sub-agents as tools, settings, prompt. */
export function buildSessionConfig(
  ctx: RunnerContext,
  request: SessionRequest,
  /** This session's own `shared: false` servers. */
  own?: McpTools,
): AgentSessionConfig {
  const { definition, scope } = request;
  const { isMaster, sessionId, name, agentPath, meta } = sessionIdentity(request);
  const trace = (entry: Parameters<RunScope['log']>[0]) => scope.log(entry, meta);
  const { settings, session } = layeredSettings(ctx, request);
  const wrappers = sessionWrappers(scope, ctx.hooks, { agentPath, sessionId });
  const modelTargets = sessionModelTargets(ctx, request, settings, trace, wrappers);
  const modelRefs = ctx.tree.models.get(definition.path) ?? [];
  const targets = modelTargets(modelRefs);
  const runChild = ctx.run ?? runAgentSession;
  const offered = sessionTools(ctx, request, {
    ...(own === undefined ? {} : { own }),
    agentPath,
    meta,
    trace,
    modelRefs,
    runChild,
    ...(wrappers === undefined ? {} : { wrappers }),
  });
  const instructions = sessionInstructions(ctx, request, settings);
  const toolOutput = toolOutputConfig(settings, modelTargets);
  const config: AgentSessionConfig = {
    ...session,
    models: targets,
    tools: offered,
    ...(ctx.runSettings?.stream === undefined ? {} : { stream: ctx.runSettings.stream }),
    ...(instructions === '' ? {} : { instructions }),
    prompt: request.prompt,
    ...(request.conversationHistory === undefined ? {} : { history: request.conversationHistory }),
    ...(request.exchanges === undefined ? {} : { exchanges: request.exchanges }),
    output: request.expectedOutput,
    ...(request.reportBack === true ? { reportBack: true } : {}),
    ...(request.answerFromLastMessage === true ? { answerFromLastMessage: true } : {}),
    toolOutput,
    onEvent: request.onEvent ?? scope.listener(isMaster),
    ...(request.signal === undefined ? {} : { signal: request.signal }),
    name,
    ...(request.parentAgentPath === undefined ? {} : { parentAgentPath: request.parentAgentPath }),
    isMaster,
    ...(request.headendId === undefined ? {} : { headendId: request.headendId }),
    sessionId,
    ...approvalSetting(ctx, definition, settings),
    ...sessionGuardrails(ctx, request, { agentPath, runChild }),
    ...request.durable,
  };
  return config;
}

/** Who the session is: master or not, its id, name and path, and the meta of its events. */
function sessionIdentity(request: SessionRequest) {
  const isMaster = request.isMaster ?? request.depth === 0;
  const sessionId = request.sessionId ?? randomUUID();
  const name = request.name ?? request.definition.toolName;
  const agentPath = request.parentAgentPath === undefined ? name : `${request.parentAgentPath}.${name}`;
  const meta: AgentEventMeta = {
    isMaster,
    isFinal: false,
    sessionId,
    agentPath,
    ...(request.headendId === undefined ? {} : { headendId: request.headendId }),
  };
  return { isMaster, sessionId, name, agentPath, meta };
}

/**
 * The model targets of references for this session: its caching and context buffer, its clients
 * hooked and recorded (`wrappers`), traced with --trace-llm.
 */
function sessionModelTargets(
  ctx: RunnerContext,
  request: SessionRequest,
  settings: AgentSettings,
  trace: TraceSink,
  wrappers: SessionWrappers | undefined,
): (refs: readonly ModelRef[]) => ModelTarget[] {
  return (refs) =>
    ctx.targets.targets(refs, cachingTargetOptions(settings.caching)).map((target, i) => {
      const wrapped = wrappers === undefined ? target.client : wrappers.modelClient(target.client, refs[i]!);
      const client = request.trace.llm ? traceModelClient(wrapped, trace) : wrapped;
      return {
        ...target,
        ...(settings.contextWindowBufferTokens === undefined
          ? {}
          : { contextBuffer: settings.contextWindowBufferTokens }),
        ...(client === target.client ? {} : { client }),
      };
    });
}

/** The settings `agent.json`'s `defaults` give, picked once per loaded config (not per session). */
const defaultSettings = new WeakMap<object, AgentSettings>();

function configDefaults(defaults: object): AgentSettings {
  let picked = defaultSettings.get(defaults);
  if (picked === undefined) {
    picked = pickSettings(defaults);
    defaultSettings.set(defaults, picked);
  }
  return picked;
}

/** An agent's settings at one level, layered, and the session config's part they make. */
interface LayeredSettings {
  settings: AgentSettings;
  session: ReturnType<typeof sessionSettings>;
}

/**
 * Layered settings by runner and agent, top level and sub-agent level apart: a request without
 * `overrides` layers the same layers each time (the runner's config and flags do not change).
 */
const layeredByRunner = new WeakMap<RunnerContext, WeakMap<AgentDefinition, LayeredSettings[]>>();

/** The settings of one session, layered (once per runner, agent and level without `overrides`). */
function layeredSettings(ctx: RunnerContext, request: SessionRequest): LayeredSettings {
  if (request.overrides !== undefined) return layered(ctx, request);
  let byAgent = layeredByRunner.get(ctx);
  if (byAgent === undefined) {
    byAgent = new WeakMap();
    layeredByRunner.set(ctx, byAgent);
  }
  let levels = byAgent.get(request.definition);
  if (levels === undefined) {
    levels = [];
    byAgent.set(request.definition, levels);
  }
  const level = request.depth === 0 ? 0 : 1;
  levels[level] ??= layered(ctx, request);
  return levels[level];
}

function layered(ctx: RunnerContext, request: SessionRequest): LayeredSettings {
  const run = ctx.runSettings ?? {};
  const own = request.definition.settings;
  const defaults = configDefaults(ctx.config.defaults);
  // The per-setting flags beat the top agent's file; a sub-agent's own file beats them.
  const settings =
    request.depth === 0
      ? layerSettings(run.all, request.overrides, run.top, own, defaults)
      : layerSettings(run.all, request.overrides, own, run.top, defaults);
  return { settings, session: sessionSettings(settings) };
}

/** The session config's part the settings make: sampling, retries and timeouts. */
export function sessionSettings(settings: AgentSettings) {
  const {
    toolOutput: _files,
    llmTimeout,
    toolTimeout,
    caching: _caching,
    contextWindowBufferTokens: _buffer,
    maxRetries,
    ...sampling
  } = settings;
  return {
    ...withoutNulls(sampling),
    // ai-agent's `maxRetries: 0` (no retry) is one attempt.
    ...(maxRetries === undefined ? {} : { maxRetries: Math.max(1, maxRetries) }),
    // The agent file's keys keep their names (documented in milliseconds); the session's end in Ms.
    ...(llmTimeout === undefined ? {} : { llmTimeoutMs: llmTimeout }),
    ...(toolTimeout === undefined ? {} : { toolTimeoutMs: toolTimeout }),
  };
}

/**
 * The agent's prompt with its variables expanded (computed only when the prompt uses one, or
 * when the run is recorded: its record keeps the top session's clock and machine facts).
 */
function sessionInstructions(ctx: RunnerContext, request: SessionRequest, settings: AgentSettings): string {
  const { scope } = request;
  const variables = () =>
    promptVariables({
      format: request.expectedOutput.format,
      cwd: ctx.cwd,
      ...(settings.maxTurns === undefined ? {} : { maxTurns: settings.maxTurns }),
      ...(settings.maxToolCallsPerTurn === undefined
        ? {}
        : { maxToolCallsPerTurn: settings.maxToolCallsPerTurn }),
      ...(scope.promptFactOverrides === undefined ? {} : { facts: scope.promptFactOverrides }),
    });
  if (request.depth === 0 && scope.keepsConversations && scope.usedPromptFacts === undefined) {
    const values = variables();
    scope.usedPromptFacts = pickPromptFacts(values);
    return expandPromptVariables(request.definition.prompt, values).trim();
  }
  return expandPromptVariables(request.definition.prompt, variables).trim();
}

/**
 * The session's `approval.tools`: the agent's own globs (file, then defaults), for each MCP
 * server it uses whose `agent.json` entry has `approval`, that server's globs under its
 * `<server>__` prefix (the names the model sees), and the tools of its HTTP APIs that need one.
 */
function approvalSetting(
  ctx: RunnerContext,
  definition: AgentDefinition,
  settings: AgentSettings,
): Pick<AgentSessionConfig, 'approval'> {
  const tools = [...(settings.approval?.tools ?? [])];
  for (const ref of definition.tools) {
    const server = ctx.config.mcpServers.get(ref.name)?.value.approval;
    for (const glob of server?.tools ?? []) tools.push(`${ref.name}__${glob}`);
    // A remote A2A agent's: globs over its skill ids.
    for (const glob of ctx.config.a2aAgents.get(ref.name)?.value.approval?.tools ?? [])
      tools.push(`${ref.name}__${glob}`);
    // An HTTP API's calls other than GET (or as its `approval` says): their exact tool names.
    tools.push(...(ctx.http?.get(ref.name)?.approvalTools?.() ?? []));
  }
  return tools.length === 0 ? {} : { approval: { tools } };
}
