import { type AgentEvent, OUTPUT_FORMATS, type OutputFormat } from '@agent/protocol';
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
import type { AgentCatalog, AgentInfo } from '../agent-catalog.js';
import { describedWithOrchestration } from '../orchestration-text.js';
import { requestSchemaProblem } from '../schema-guard.js';
import { inputRejection, reportText } from '../usage.js';
import { logMessage, SessionLogging } from './session-logging.js';

export const MCP_SERVER_NAME = 'agent-headend';
export const MCP_SERVER_VERSION = '0.1.0';

/** The input schema of an agent's tool: prompt, format, and schema when the format is json. */
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
  if (info.outputFormat === 'json') {
    properties.schema = { type: 'object', description: 'JSON Schema the report must match.' };
  }
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
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: options.catalog.list().map((info) => ({
      name: info.name,
      description: describedWithOrchestration(
        info.description ?? `Runs the ${info.name} agent.`,
        info.orchestration,
      ),
      inputSchema: toolInputSchema(info),
    })),
  }));
  const callAgent = async (request: CallToolRequest, extra: CallExtra): Promise<CallToolResult> => {
    const agent = options.catalog.get(request.params.name);
    if (agent === undefined) {
      throw new McpError(ErrorCode.InvalidParams, `unknown tool "${request.params.name}"`);
    }
    const args = request.params.arguments ?? {};
    const prompt = args.prompt;
    if (typeof prompt !== 'string' || prompt === '') {
      return { isError: true, content: [{ type: 'text', text: '"prompt" must be a non-empty string' }] };
    }
    const format = args.format;
    if (format !== undefined && !(OUTPUT_FORMATS as readonly unknown[]).includes(format)) {
      return {
        isError: true,
        content: [{ type: 'text', text: `"format" must be one of ${OUTPUT_FORMATS.join(', ')}` }],
      };
    }
    const schema = args.schema;
    if (schema !== undefined) {
      const problem = requestSchemaProblem(schema, '"schema"');
      if (problem !== undefined) return { isError: true, content: [{ type: 'text', text: problem }] };
    }
    const conversationId = args.conversationId;
    if (conversationId !== undefined) {
      const problem = conversationIdProblem(conversationId);
      if (problem !== undefined) {
        return { isError: true, content: [{ type: 'text', text: `"conversationId": ${problem}` }] };
      }
    }
    let ticket: SessionTicket;
    try {
      const signals = [extra.signal, options.signal, options.requestSignal?.(extra.requestId)].filter(
        (signal): signal is AbortSignal => signal !== undefined,
      );
      ticket = await options.admission.enter(AbortSignal.any(signals));
    } catch (error) {
      const message = errorMessage(error);
      return { isError: true, content: [{ type: 'text', text: message }] };
    }
    const progressToken = extra._meta?.progressToken;
    let progress = 0;
    try {
      const result = await agent.run(prompt, {
        format: format as OutputFormat | undefined,
        schema:
          typeof schema === 'object' && schema !== null ? (schema as Record<string, unknown>) : undefined,
        headendId: options.headendId,
        signal: ticket.signal,
        ...(conversationId === undefined ? {} : { conversationId: conversationId as string }),
        onEvent: (event, meta) => {
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
        },
      });
      const rejection = inputRejection(result);
      if (rejection !== undefined) return { isError: true, content: [{ type: 'text', text: rejection }] };
      const text = reportText(result);
      if (text === undefined) {
        return {
          isError: true,
          content: [
            {
              type: 'text',
              text: `the agent run failed (${result.exitCode}): ${result.error ?? 'no report'}`,
            },
          ],
        };
      }
      return { isError: !result.success, content: [{ type: 'text', text }] };
    } finally {
      ticket.release();
    }
  };
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    // The session must not expire while a call runs (or waits for a slot).
    options.activity?.callStarted();
    const { closeSSEStream } = extra;
    const closeAfter = options.streamCloseAfterMs;
    // 0 closes at once (after the priming event): the client polls for everything.
    if (closeAfter === 0) closeSSEStream?.();
    const closing =
      closeSSEStream === undefined || closeAfter === undefined || closeAfter === 0
        ? undefined
        : setTimeout(closeSSEStream, closeAfter);
    try {
      return await callAgent(request, extra);
    } finally {
      if (closing !== undefined) clearTimeout(closing);
      options.activity?.callFinished();
    }
  });
  return server;
}
