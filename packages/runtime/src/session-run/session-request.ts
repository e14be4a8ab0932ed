import type { AgentSessionConfig } from '@agent/core';
import type {
  AgentEventMeta,
  AgentResult,
  ConversationExchange,
  ConversationMessage,
  ExpectedOutput,
  ToolProvider,
} from '@agent/protocol';
import type { AgentDefinition } from '../agent-file/definition.js';
import type { RunSettings } from '../agent-file/setting-overrides.js';
import type { AgentSettings } from '../agent-file/settings.js';
import type { SessionHooks } from '../api.js';
import type { RuntimeCache } from '../cache/runtime-cache.js';
import type { ResolvedConfig } from '../config/layers.js';
import type { TargetBuilder } from '../models/build-targets.js';
import type { AgentTree } from '../registry/registry.js';
import type { LevelLimiter } from '../runner/limiter.js';
import type { EventListener, RunScope } from '../runner/run-scope.js';
import type { McpTools } from '../tools/build-tools.js';

// The types a session run is described by: what a runner holds for all its runs and one
// session to run. Kept apart from `session-runner.ts`, so the caches and orchestration that
// take them do not import the runner they are called from.

/** What a runner holds for all its runs. */
export interface RunnerContext {
  tree: AgentTree;
  config: ResolvedConfig;
  targets: TargetBuilder;
  mcp: McpTools;
  /** The HTTP APIs (`restTools`, `openapiSpecs`) the tree uses, by name (docs/http-tools.md). */
  http?: Map<string, ToolProvider & { approvalTools?(): string[] }>;
  /** Remote A2A agents (`a2aAgents`), their cards read once per runner. */
  a2a?: Map<string, ToolProvider>;
  limiter: LevelLimiter;
  cwd: string;
  /**
   * Runs an agent with its orchestration (advisors, router, handoff); sub-agents are run
   * through it. Absent: one session (`runAgentSession`).
   */
  run?: (ctx: RunnerContext, request: SessionRequest) => Promise<AgentResult>;
  /** The response and tool caches, when some agent or MCP server of the tree caches. */
  cache?: RuntimeCache;
  /** `--override` and the per-setting flags of the command line. */
  runSettings?: RunSettings;
  /** The runner's `sessionHooks` (a replay answers from a record through them). */
  hooks?: SessionHooks;
  /** Starts `shared: false` MCP servers for one session (absent: they are not started). */
  startPrivateServers?: (names: string[], signal?: AbortSignal) => Promise<McpTools>;
}

/** One session to run: the top agent, or a sub-agent called by its parent. */
export interface SessionRequest {
  definition: AgentDefinition;
  prompt: string;
  expectedOutput: ExpectedOutput;
  /** Offer the child the native `report_back` tool (seed 004). */
  reportBack?: boolean;
  /** A sub-agent called as a tool: its answer without a report is its result (seed 004, decision 4). */
  answerFromLastMessage?: boolean;
  /** 0 for the top agent. */
  depth: number;
  parentAgentPath?: string;
  /** Settings of this run that beat the file's (top agent only). */
  overrides?: AgentSettings;
  conversationHistory?: readonly ConversationMessage[];
  /** A conversation's earlier exchanges (the top agent of a run with a `conversationId`). */
  exchanges?: readonly ConversationExchange[];
  signal?: AbortSignal;
  /** Aborted: the session finishes with a final turn (a graceful stop). */
  stopSignal?: AbortSignal;
  headendId?: string;
  trace: { llm: boolean; mcp: boolean };
  scope: RunScope;
  sessionId?: string;
  /** Its name in agent paths and the op tree (default its `toolName`; `advisor:a` for a stage). */
  name?: string;
  /** Default: true for the top agent (depth 0). A chain's later agents inherit the caller's. */
  isMaster?: boolean;
  /** Tools besides its own (the router's `router__handoff-to`). */
  extraTools?: readonly ToolProvider[];
  /** Listener of its events (default the scope's listener for `isMaster`). */
  onEvent?: EventListener;
  /** Checkpoints, turn journal, resume and approval of the top agent's session (docs/sessions.md). */
  durable?: Pick<
    AgentSessionConfig,
    | 'onCheckpoint'
    | 'onJournal'
    | 'approver'
    | 'approvalTimeoutMs'
    | 'approvals'
    | 'resumeFrom'
    | 'resumeJournal'
  >;
}

/** A runner's context plus the hooks its runs need (internal: tests build sessions from it). */
export interface PreparedRunner {
  context: RunnerContext;
  /** Active runs, for MCP log lines that arrive while they run. */
  active: Set<{ scope: RunScope; meta: AgentEventMeta }>;
  trace: { llm: boolean; mcp: boolean };
}
