import { randomUUID } from 'node:crypto';
import { type AgentSessionConfig, createAgentSession } from '@agent/core';
import { createInProcessFsProvider } from '@agent/mcp/fs-server';
import type {
  AgentEventMeta,
  AgentResult,
  ConversationMessage,
  ExpectedOutput,
  ToolProvider,
} from '@agent/protocol';
import type { AgentDefinition } from './agent-file/definition.js';
import { type AgentSettings, layerSettings, pickSettings } from './agent-file/settings.js';
import type { TargetBuilder } from './build-targets.js';
import type { McpTools } from './build-tools.js';
import { runWithResponseCache } from './cache/response-cache.js';
import type { RuntimeCache } from './cache/runtime-cache.js';
import { cachedTools } from './cache/session-tools.js';
import type { ResolvedConfig } from './config/layers.js';
import type { LevelLimiter } from './limiter.js';
import { expandPromptVariables, promptVariables } from './prompt-variables.js';
import type { AgentTree } from './registry.js';
import type { RunScope } from './run-scope.js';
import { SubAgentToolProvider } from './sub-agent-tool.js';
import { traceModelClient, traceToolProvider } from './tracing.js';

/** What a runner holds for all its runs. */
export interface RunnerContext {
  tree: AgentTree;
  config: ResolvedConfig;
  targets: TargetBuilder;
  mcp: McpTools;
  limiter: LevelLimiter;
  cwd: string;
  /** The response and tool caches, when some agent or MCP server of the tree caches. */
  cache?: RuntimeCache;
}

/** One session to run: the top agent, or a sub-agent called by its parent. */
export interface SessionRequest {
  definition: AgentDefinition;
  prompt: string;
  expectedOutput: ExpectedOutput;
  /** 0 for the top agent. */
  depth: number;
  parentAgentPath?: string;
  /** Settings of this run that beat the file's (top agent only). */
  overrides?: AgentSettings;
  conversationHistory?: readonly ConversationMessage[];
  signal?: AbortSignal;
  /** Aborted: the session finishes with a final turn (a graceful stop). */
  stopSignal?: AbortSignal;
  headendId?: string;
  trace: { llm: boolean; mcp: boolean };
  scope: RunScope;
  sessionId?: string;
}

/** The tool-output settings for a session: on unless `enabled: false`; Read/Grep in-process for read-grep. */
function toolOutputConfig(settings: AgentSettings): AgentSessionConfig['toolOutput'] {
  const options = settings.toolOutput ?? {};
  if (options.enabled === false) return undefined;
  return {
    ...options,
    createReadGrepTools: (root: string) =>
      createInProcessFsProvider({ root, tools: ['Read', 'Grep'], naming: 'bare' }),
  };
}

/** Builds and runs the session of one agent; `stopSignal` asks it for a final turn. */
export async function runAgentSession(ctx: RunnerContext, request: SessionRequest): Promise<AgentResult> {
  const config = buildSessionConfig(ctx, request);
  return runWithResponseCache(ctx, request, config, () => runSession(config, request.stopSignal));
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
export function buildSessionConfig(ctx: RunnerContext, request: SessionRequest): AgentSessionConfig {
  const { definition, scope } = request;
  const isMaster = request.depth === 0;
  const sessionId = request.sessionId ?? randomUUID();
  const agentPath =
    request.parentAgentPath === undefined
      ? definition.toolName
      : `${request.parentAgentPath}.${definition.toolName}`;
  const meta: AgentEventMeta = {
    isMaster,
    isFinal: false,
    sessionId,
    agentPath,
    ...(request.headendId === undefined ? {} : { headendId: request.headendId }),
  };
  const trace = (entry: Parameters<RunScope['log']>[0]) => scope.log(entry, meta);
  const refs = ctx.tree.models.get(definition.path) ?? [];
  const targets = ctx.targets
    .targets(refs)
    .map((target) =>
      request.trace.llm ? { ...target, client: traceModelClient(target.client, trace) } : target,
    );
  const tools: ToolProvider[] = [];
  for (const ref of definition.tools) {
    const provider = ctx.mcp.providers.get(ref.name);
    if (provider === undefined) continue;
    const traced = request.trace.mcp ? traceToolProvider(provider, trace) : provider;
    tools.push(
      cachedTools(ctx, ref.name, provider, traced, { scope, meta, listener: scope.listener(isMaster) }),
    );
  }
  for (const ref of definition.agents) {
    const child = ctx.tree.agents.get(ref.path);
    if (child === undefined) continue;
    tools.push(
      new SubAgentToolProvider(child, {
        depth: request.depth + 1,
        maxDepth: ctx.tree.maxDepth,
        parentAgentPath: agentPath,
        limiter: ctx.limiter,
        run: (childRequest) =>
          runAgentSession(ctx, {
            definition: childRequest.child,
            prompt: childRequest.prompt,
            expectedOutput: childRequest.expectedOutput,
            depth: childRequest.depth,
            parentAgentPath: childRequest.parentAgentPath,
            signal: childRequest.signal,
            ...(request.stopSignal === undefined ? {} : { stopSignal: request.stopSignal }),
            trace: request.trace,
            scope,
            ...(request.headendId === undefined ? {} : { headendId: request.headendId }),
          }),
      }),
    );
  }
  const settings = layerSettings(request.overrides, definition.settings, pickSettings(ctx.config.defaults));
  const { toolOutput: _files, llmTimeout, toolTimeout, ...sessionSettings } = settings;
  const instructions = expandPromptVariables(
    definition.prompt,
    promptVariables({ format: request.expectedOutput.format, cwd: ctx.cwd }),
  ).trim();
  const toolOutput = toolOutputConfig(settings);
  const config: AgentSessionConfig = {
    ...sessionSettings,
    // The agent file's keys keep their names (documented in milliseconds); the session's end in Ms.
    ...(llmTimeout === undefined ? {} : { llmTimeoutMs: llmTimeout }),
    ...(toolTimeout === undefined ? {} : { toolTimeoutMs: toolTimeout }),
    models: targets,
    tools,
    ...(instructions === '' ? {} : { instructions }),
    prompt: request.prompt,
    ...(request.conversationHistory === undefined ? {} : { history: request.conversationHistory }),
    output: request.expectedOutput,
    ...(toolOutput === undefined ? {} : { toolOutput }),
    onEvent: scope.listener(isMaster),
    ...(request.signal === undefined ? {} : { signal: request.signal }),
    name: definition.toolName,
    ...(request.parentAgentPath === undefined ? {} : { parentAgentPath: request.parentAgentPath }),
    isMaster,
    ...(request.headendId === undefined ? {} : { headendId: request.headendId }),
    sessionId,
  };
  return config;
}
