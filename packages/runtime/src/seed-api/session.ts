import { randomUUID } from 'node:crypto';
import { type AgentSession, type AgentSessionConfig, createAgentSession } from '@agent/core';
import type {
  AgentEventMeta,
  AgentResult,
  ConversationMessage,
  ExpectedOutput,
  ModelTarget,
  ToolProvider,
} from '@agent/protocol';
import { errorMessage } from '@agent/protocol/util';
import { redactSecrets } from '@agent/providers';
import type { ResolvedConfig } from '../config/layers.js';
import { configurationFailure } from '../runner/run-outcomes.js';
import { type EventListener, RunScope } from '../runner/run-scope.js';
import { type McpTools, startMcpServers } from '../tools/build-tools.js';
import {
  type Configuration,
  resolveSeedConfiguration,
  type SeedTarget,
  seedTargets,
  seedTools,
} from './configuration.js';
import { defaultSettings } from './defaults.js';

/** Names seed 002's example imports with `AIAgentSessionConfig`, here so one import does. */
export type { AccountingEntry, AgentResult as AIAgentResult, LogEntry } from '@agent/protocol';

/**
 * Seed 002's `AIAgentSessionConfig` as its example writes it: `config` (providers and MCP
 * servers), `targets` as `{ provider, model }` pairs, `tools` as MCP server names. Every other
 * key is `@agent/core`'s session config, under its own name or seed 002's.
 */
export type AIAgentSessionConfig = Omit<AgentSessionConfig, 'model' | 'models' | 'tools' | 'prompt'> & {
  config: Configuration;
  /** The user's prompt: `userPrompt` (seed 002) or `prompt`, one of them. */
  prompt?: AgentSessionConfig['prompt'];
  targets: readonly SeedTarget[];
  /** MCP servers of `config.mcpServers` to expose (tools or tool providers may stand beside them). */
  tools?: readonly (string | NonNullable<AgentSessionConfig['tools']>[number])[];
  systemPrompt?: string;
  userPrompt?: string;
  conversationHistory?: readonly ConversationMessage[];
  expectedOutput?: ExpectedOutput;
  /** Per model call, in milliseconds (`llmTimeoutMs`). */
  llmTimeout?: number;
  /** Per tool call, in milliseconds (`toolTimeoutMs`). */
  toolTimeout?: number;
  callbacks?: { onEvent?: EventListener };
};

/** What a session needs from the config before the core runs it: targets, tools, started servers. */
interface Prepared {
  config: ResolvedConfig;
  models: ModelTarget[];
  servers: string[];
  others: unknown[];
}

/**
 * Seed 002's `AIAgent` over `@agent/runtime`: `create(config)` reads the config's providers and
 * MCP servers and returns a session whose `run()` starts the named servers, runs the core's
 * session and stops them. `run(session)` is `session.run()`. A config that cannot work is the
 * result's `error` (`EXIT-CONFIGURATION`), never a throw.
 */
export const AIAgent: {
  readonly create: (config: AIAgentSessionConfig) => AgentSession;
  readonly run: (session: AgentSession) => Promise<AgentResult>;
} = Object.freeze({
  create: (config: AIAgentSessionConfig) => createSeedSession(config),
  run: (session: AgentSession) => session.run(),
});

function createSeedSession(input: AIAgentSessionConfig): AgentSession {
  const sessionId = input.sessionId ?? randomUUID();
  let core: AgentSession | undefined;
  let stopped: 'stop' | 'abort' | undefined;
  let running: Promise<AgentResult> | undefined;
  return {
    sessionId,
    run() {
      running ??= runSeedSession(input, sessionId, (session) => {
        core = session;
        if (stopped !== undefined) session.stop(stopped);
      });
      return running;
    },
    stop(reason) {
      if (stopped !== 'abort') stopped = reason;
      core?.stop(reason);
    },
  };
}

async function runSeedSession(
  input: AIAgentSessionConfig,
  sessionId: string,
  started: (session: AgentSession) => void,
): Promise<AgentResult> {
  const { config: configuration, targets, tools, callbacks, onEvent: ownListener, ...rest } = input;
  const listener = callbacks?.onEvent ?? ownListener;
  const fail = (error: unknown, redact: (text: string) => string = (text) => text) =>
    configurationFailure(redact(redactSecrets(errorMessage(error))), {
      ...(listener === undefined ? {} : { onEvent: listener }),
      ...(input.headendId === undefined ? {} : { headendId: input.headendId }),
    });
  if (callbacks?.onEvent !== undefined && ownListener !== undefined && callbacks.onEvent !== ownListener)
    return fail(
      new Error(
        "callbacks.onEvent (seed 002's name) and onEvent are both given with different values: give one",
      ),
    );
  let prepared: Prepared;
  try {
    prepared = prepare(configuration, targets, tools);
  } catch (error) {
    return fail(error);
  }
  const { config } = prepared;
  let mcp: McpTools;
  try {
    mcp = await startMcpServers(
      prepared.servers,
      config,
      input.signal === undefined ? {} : { signal: input.signal },
    );
  } catch (error) {
    return fail(error, config.redact);
  }
  try {
    return await runCore({ ...rest, sessionId }, prepared, mcp, listener, started);
  } finally {
    await mcp.close().catch(() => undefined);
  }
}

type CoreConfig = Omit<AIAgentSessionConfig, 'config' | 'targets' | 'tools' | 'callbacks' | 'onEvent'> & {
  sessionId: string;
};

/** The core's session over the built targets and started servers, its events and result redacted. */
async function runCore(
  config: CoreConfig,
  prepared: Prepared,
  mcp: McpTools,
  listener: EventListener | undefined,
  started: (session: AgentSession) => void,
): Promise<AgentResult> {
  const scope = new RunScope(listener, prepared.config.redact);
  const meta: AgentEventMeta = {
    isMaster: config.isMaster ?? true,
    isFinal: false,
    sessionId: config.sessionId,
    agentPath: config.name ?? 'main',
    ...(config.headendId === undefined ? {} : { headendId: config.headendId }),
  };
  scope.logMcpWarnings(mcp.warnings, meta);
  const providers: ToolProvider[] = prepared.servers.flatMap((name) => mcp.providers.get(name) ?? []);
  const session = createAgentSession({
    ...defaultSettings(prepared.config.defaults, config),
    ...config,
    models: prepared.models,
    tools: [...providers, ...(prepared.others as ToolProvider[])],
    onEvent: scope.listener(true),
  } as AgentSessionConfig);
  started(session);
  return scope.finish(await session.run());
}

function prepare(configuration: unknown, targets: unknown, tools: unknown): Prepared {
  const config = resolveSeedConfiguration(configuration, process.cwd());
  const models = seedTargets(targets, config);
  const { servers, others } = seedTools(tools, config);
  return { config, models, servers, others };
}
