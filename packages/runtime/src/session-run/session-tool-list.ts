import type { AgentEventMeta, AgentResult, PausedChild, ToolProvider } from '@agent/protocol';
import type { AgentDefinition, ModelRef } from '../agent-file/definition.js';
import { cachedTools } from '../cache/session-tools.js';
import type { RunScope } from '../runner/run-scope.js';
import type { McpTools } from '../tools/build-tools.js';
import { type ChildRunRequest, SubAgentToolProvider } from '../tools/sub-agent-tool.js';
import { agentToolFilters, filterTools } from '../tools/tool-filter.js';
import type { RunnerContext, SessionRequest } from './session-request.js';
import type { SessionWrappers } from './session-wrappers.js';
import { traceToolProvider } from './tracing.js';

export interface SessionToolsOptions {
  /** This session's own `shared: false` servers. */
  own?: McpTools;
  agentPath: string;
  meta: AgentEventMeta;
  /** Writes a log line of this session. */
  trace: (entry: Parameters<RunScope['log']>[0]) => void;
  /** The agent's models: their providers' tool filters apply too. */
  modelRefs: readonly ModelRef[];
  /** Runs a sub-agent's session. */
  runChild: (ctx: RunnerContext, request: SessionRequest) => Promise<AgentResult>;
  /** The session's hooks and tape recorder, when its run has them. */
  wrappers?: SessionWrappers;
}

/**
 * The tools a session offers: the agent's MCP servers and HTTP APIs (cached and traced as
 * configured), its sub-agents, filtered by its tool filters, then the caller's extra tools;
 * all of them hooked and recorded when the run says so (`wrappers`).
 */
export function sessionTools(
  ctx: RunnerContext,
  request: SessionRequest,
  options: SessionToolsOptions,
): ToolProvider[] {
  const { definition, scope } = request;
  const { own, trace, meta } = options;
  const tools: ToolProvider[] = [];
  for (const warning of own?.warnings ?? [])
    trace({
      severity: 'WRN',
      direction: 'response',
      type: 'tool',
      remoteIdentifier: `mcp:${warning.server}`,
      message: warning.message,
    });
  for (const ref of definition.tools) {
    const provider =
      own?.providers.get(ref.name) ??
      ctx.mcp.providers.get(ref.name) ??
      ctx.http?.get(ref.name) ??
      ctx.a2a?.get(ref.name);
    if (provider === undefined) continue;
    const traced = request.trace.mcp ? traceToolProvider(provider, trace) : provider;
    tools.push(
      cachedTools(ctx, ref.name, provider, traced, { scope, meta, listener: scope.listener(meta.isMaster) }),
    );
  }
  for (const ref of definition.agents) {
    const child = ctx.tree.agents.get(ref.path);
    if (child !== undefined) tools.push(subAgentTool(ctx, request, child, options));
  }
  // The agent's `toolsAllowed` / `toolsDenied`, and those of the providers of all its models
  // (fallbacks included: a tool must not appear when the call falls back), cover its MCP tools
  // and sub-agents, not the runtime's own.
  const filters = agentToolFilters(
    definition.toolFilter,
    new Set(options.modelRefs.map((ref) => ctx.config.providers.get(ref.provider)?.value)),
  );
  const offered = filters.length === 0 ? tools : tools.map((provider) => filterTools(provider, filters));
  if (request.extraTools !== undefined) offered.push(...request.extraTools);
  const { wrappers } = options;
  return wrappers === undefined ? offered : offered.map((provider) => wrappers.toolProvider(provider));
}

/** A sub-agent as a tool: its calls run its session one level deeper, in the parent's scope. */
function subAgentTool(
  ctx: RunnerContext,
  request: SessionRequest,
  child: AgentDefinition,
  options: SessionToolsOptions,
): SubAgentToolProvider {
  return new SubAgentToolProvider(child, {
    depth: request.depth + 1,
    maxDepth: ctx.tree.maxDepth,
    parentAgentPath: options.agentPath,
    limiter: ctx.limiter,
    run: (childRequest) =>
      options
        .runChild(ctx, childSessionRequest(request, childRequest))
        .then((result) => request.scope.keepConversation(result)),
  });
}

/**
 * The session request of an agent its parent runs (a sub-agent called as a tool, a guardrail's
 * judge): one level deeper, in the parent's scope, trace and approver.
 */
export function childSessionRequest(parent: SessionRequest, child: ChildRunRequest): SessionRequest {
  return {
    definition: child.child,
    prompt: child.prompt,
    expectedOutput: child.expectedOutput,
    reportBack: child.reportBack,
    answerFromLastMessage: true,
    depth: child.depth,
    parentAgentPath: child.parentAgentPath,
    signal: child.signal,
    ...(parent.stopSignal === undefined ? {} : { stopSignal: parent.stopSignal }),
    trace: parent.trace,
    scope: parent.scope,
    ...(parent.headendId === undefined ? {} : { headendId: parent.headendId }),
    ...childDurable(parent.durable, child.resume),
  };
}

/**
 * A sub-agent's session decides its calls that need approval as its parent does: with the
 * parent's approver, or by pausing (which pauses the parent); a paused one continues its snapshot.
 */
function childDurable(
  parent: SessionRequest['durable'],
  resume: PausedChild | undefined,
): Pick<SessionRequest, 'durable' | 'sessionId'> {
  const durable: NonNullable<SessionRequest['durable']> = {
    ...(parent?.approver === undefined ? {} : { approver: parent.approver }),
    ...(parent?.approvalTimeoutMs === undefined ? {} : { approvalTimeoutMs: parent.approvalTimeoutMs }),
    ...(resume === undefined ? {} : { resumeFrom: resume.snapshot, approvals: resume.approvals }),
  };
  if (Object.keys(durable).length === 0) return {};
  return { durable, ...(resume === undefined ? {} : { sessionId: resume.snapshot.sessionId }) };
}
