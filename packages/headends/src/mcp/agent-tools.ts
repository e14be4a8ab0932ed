import { type AgentEvent, type AgentResult, OUTPUT_FORMATS, type OutputFormat } from '@agent/protocol';
import { conversationIdProblem, errorMessage } from '@agent/protocol/util';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  type CallToolRequest,
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type ServerNotification,
  type ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import type { Admission, SessionTicket } from '../admission.js';
import type { AgentCatalog, AgentInfo, ServedRunOptions } from '../agent-catalog.js';
import { describedWithOrchestration } from '../orchestration-text.js';
import type { Principal } from '../principal.js';
import { requestSchemaProblem, resolveRequestedOutput } from '../schema-guard.js';
import { traceparentOption } from '../trace-context.js';
import { clientElicits, DEFAULT_MCP_APPROVAL_TIMEOUT_MS, elicitingApprover } from './elicit-approver.js';
import { RESUME_TOOL, type RunAdmitted, resumeSessionTool } from './resume-tool.js';
import { logMessage, SessionLogging } from './session-logging.js';
import { agentToolResult, errorResult, RESUME_TOOL_NAME } from './tool-results.js';

export const MCP_SERVER_NAME = 'agent-headend';
export const MCP_SERVER_VERSION = '0.1.0';

/** The input schema of an agent's tool: prompt, format, conversation id and schema (for json). */
export function toolInputSchema(info: AgentInfo) {
  const properties: Record<string, unknown> = {
    prompt: { type: 'string', description: 'What the agent should do.' },
    format: {
      type: 'string',
      enum: [...OUTPUT_FORMATS],
      description: `Output format of the report (default ${info.outputFormat}).`,
    },
    conversationId: {
      type: 'string',
      pattern: '^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$',
      description:
        'Optional: a conversation to continue. Its earlier prompts and reports come back to the agent as history, and this call is added to it.',
    },
  };
  properties.schema = {
    type: 'object',
    description: `JSON Schema the report must match; only with format json, which needs one${info.outputSchema === undefined ? '' : " (default: the agent's own)"}. A schema without a format means json.`,
  };
  return { type: 'object' as const, properties, required: ['prompt'] };
}

function progressMessage(event: AgentEvent): string | undefined {
  if (event.type === 'turn_started')
    return `turn ${event.turn}${event.isRetry ? ` (retry ${event.attempt})` : ''}`;
  if (event.type !== 'progress') return undefined;
  const progress = event.event;
  if (progress.type === 'agent_update') return progress.message;
  if (progress.type === 'tool_started' || progress.type === 'tool_finished') {
    return `${progress.type === 'tool_started' ? 'calling' : 'finished'} ${progress.tool}`;
  }
  return progress.message ?? progress.type;
}

export interface AgentToolsOptions {
  catalog: AgentCatalog;
  admission: Admission;
  headendId: string;
  /** Whom the MCP session acts for: it owns the runs, and resumes only what it may see. */
  principal: Principal;
  /** Aborts running tools too (the HTTP request's signal). */
  signal?: AbortSignal;
  /** The signal of the HTTP request that carried a given JSON-RPC request id, when known. */
  requestSignal?: (requestId: string | number) => AbortSignal | undefined;
  /** Told when a tool call starts and when it ends (the MCP session's idle clock). */
  activity?: CallActivity;
  /**
   * Close a tool call's SSE stream this long after it opened, when the client can resume it
   * (2025-11-25): the client reconnects with `Last-Event-ID` and the call goes on. Default: open.
   */
  streamCloseAfterMs?: number;
  /** How long an elicitation for an approval may wait for the person (default 10 minutes). */
  approvalTimeoutMs?: number;
}

/** Watches tool calls: every `callStarted` is followed by one `callFinished`. */
export interface CallActivity {
  callStarted(): void;
  callFinished(): void;
}

type CallExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** An MCP server whose tools are the catalog's agents; it sends progress while a tool runs. */
export function createAgentToolsServer(options: AgentToolsOptions): Server {
  const server = new Server(
    { name: MCP_SERVER_NAME, version: MCP_SERVER_VERSION },
    { capabilities: { tools: {}, logging: {} } },
  );
  const logging = new SessionLogging(server);
  const runAdmitted: RunAdmitted<CallExtra> = (extra, start) =>
    runAdmittedCall({ server, options, logging }, extra, start);
  const resume = resumeSessionTool(options.catalog, options.principal, runAdmitted);
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [...agentTools(options.catalog), ...(resume.listed() ? [RESUME_TOOL] : [])],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    // The session must not expire while a call runs (or waits for a slot).
    options.activity?.callStarted();
    const closing = scheduleStreamClose(extra, options.streamCloseAfterMs);
    try {
      if (request.params.name === RESUME_TOOL_NAME && resume.listed())
        return await resume.call(request, extra);
      return await callAgent(options.catalog, request, extra, runAdmitted);
    } finally {
      if (closing !== undefined) clearTimeout(closing);
      options.activity?.callFinished();
    }
  });
  return server;
}

/** One tool per agent of the catalog. */
function agentTools(catalog: AgentCatalog) {
  return catalog.list().map((info) => ({
    name: info.name,
    description: describedWithOrchestration(
      info.description ?? `Runs the ${info.name} agent.`,
      info.orchestration,
    ),
    inputSchema: toolInputSchema(info),
  }));
}

/**
 * Closes a call's SSE stream `closeAfter` ms after it opened, for a client that can resume it
 * (0: at once, after the priming event; the client polls for everything). Returns the timer
 * the call's end clears.
 */
function scheduleStreamClose(
  extra: CallExtra,
  closeAfter: number | undefined,
): ReturnType<typeof setTimeout> | undefined {
  const { closeSSEStream } = extra;
  if (closeAfter === 0) closeSSEStream?.();
  return closeSSEStream === undefined || closeAfter === undefined || closeAfter === 0
    ? undefined
    : setTimeout(closeSSEStream, closeAfter);
}

/** Runs the agent the call names with the call's checked arguments. */
async function callAgent(
  catalog: AgentCatalog,
  request: CallToolRequest,
  extra: CallExtra,
  runAdmitted: RunAdmitted<CallExtra>,
): Promise<CallToolResult> {
  const agent = catalog.get(request.params.name);
  if (agent === undefined) {
    throw new McpError(ErrorCode.InvalidParams, `unknown tool "${request.params.name}"`);
  }
  const args = await readCallArguments(request.params.arguments ?? {});
  if (typeof args === 'string') return errorResult(args);
  const { prompt, conversationId } = args;
  const output = resolveRequestedOutput(args, agent.info, { json: '"format" json', schema: '"schema"' });
  if (typeof output === 'string') return errorResult(output);
  return runAdmitted(extra, (runOptions) =>
    agent.run(prompt, {
      ...runOptions,
      ...output,
      ...(conversationId === undefined ? {} : { conversationId }),
    }),
  );
}

/** A call's arguments checked: the prompt, and the optional format, schema and conversation id. */
async function readCallArguments(
  args: Record<string, unknown>,
): Promise<
  | { prompt: string; format?: OutputFormat; schema?: Record<string, unknown>; conversationId?: string }
  | string
> {
  const { prompt, format, schema, conversationId } = args;
  if (typeof prompt !== 'string' || prompt === '') return '"prompt" must be a non-empty string';
  if (format !== undefined && !(OUTPUT_FORMATS as readonly unknown[]).includes(format)) {
    return `"format" must be one of ${OUTPUT_FORMATS.join(', ')}`;
  }
  if (schema !== undefined) {
    const problem = await requestSchemaProblem(schema, '"schema"');
    if (problem !== undefined) return problem;
  }
  if (conversationId !== undefined) {
    const problem = conversationIdProblem(conversationId);
    if (problem !== undefined) return `"conversationId": ${problem}`;
  }
  return {
    prompt,
    ...(format === undefined ? {} : { format: format as OutputFormat }),
    ...(typeof schema === 'object' && schema !== null ? { schema: schema as Record<string, unknown> } : {}),
    ...(conversationId === undefined ? {} : { conversationId: conversationId as string }),
  };
}

/**
 * A run's events as MCP notifications: log lines the client's logging level wants, and the
 * master's progress when the call carries a progress token.
 */
function mcpNotifications(extra: CallExtra, logging: SessionLogging): ServedRunOptions['onEvent'] {
  const progressToken = extra._meta?.progressToken;
  let progress = 0;
  return (event, meta) => {
    if (event.type === 'log') {
      if (!logging.wants(event.entry.severity)) return;
      void extra
        .sendNotification({ method: 'notifications/message', params: logMessage(event.entry) })
        .catch(() => undefined);
      return;
    }
    if (progressToken === undefined || !meta.isMaster) return;
    const message = progressMessage(event);
    if (message === undefined) return;
    progress += 1;
    void extra
      .sendNotification({
        method: 'notifications/progress',
        params: { progressToken, progress, message },
      })
      .catch(() => undefined);
  };
}

/**
 * Waits for a slot, then runs `start` with the run options every call shares: progress and
 * log notifications, the ticket's signal, and (when the client elicits) an approver asking it.
 */
async function runAdmittedCall(
  ctx: { server: Server; options: AgentToolsOptions; logging: SessionLogging },
  extra: CallExtra,
  start: (runOptions: ServedRunOptions) => Promise<AgentResult>,
): Promise<CallToolResult> {
  const { server, options, logging } = ctx;
  let ticket: SessionTicket;
  try {
    const signals = [extra.signal, options.signal, options.requestSignal?.(extra.requestId)].filter(
      (signal): signal is AbortSignal => signal !== undefined,
    );
    ticket = await options.admission.enter(AbortSignal.any(signals));
  } catch (error) {
    return errorResult(errorMessage(error));
  }
  try {
    const result = await start({
      headendId: options.headendId,
      owner: options.principal.id,
      signal: ticket.signal,
      // Streamable HTTP: the request's header; any transport: the call's `_meta.traceparent`.
      ...traceparentOption(extra.requestInfo?.headers?.traceparent ?? extra._meta?.traceparent),
      ...(clientElicits(server)
        ? {
            approver: elicitingApprover(
              server,
              extra.requestId,
              options.approvalTimeoutMs ?? DEFAULT_MCP_APPROVAL_TIMEOUT_MS,
            ),
          }
        : {}),
      onEvent: mcpNotifications(extra, logging),
    });
    return agentToolResult(result);
  } finally {
    ticket.release();
  }
}
