import type { AgentEvent, AgentEventMeta, AgentResult, ToolProvider } from '@agent/protocol';
import { context } from '@opentelemetry/api';
import { type SessionTrace, type SessionTraceOptions, startSessionTrace } from './session-trace.js';

type EventListener = (event: AgentEvent, meta: AgentEventMeta) => void;

/** What a session's config needs to be traced: its observer and its tools. */
export interface TraceableConfig {
  /**
   * The core's `observe` hook: structural events only, and unlike an `onEvent` listener it
   * changes nothing the session does (no `agent__task_status` offered for it, no streamed deltas).
   */
  observe?: EventListener;
  /** Tool providers are wrapped (`traceToolCalls`); anything else (a core `tool()`) is kept as it is. */
  tools?: readonly unknown[];
}

function isToolProvider(value: unknown): value is ToolProvider {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as ToolProvider).listTools === 'function' &&
    typeof (value as ToolProvider).execute === 'function' &&
    typeof (value as ToolProvider).id === 'string'
  );
}

/**
 * Runs each call of `provider` in its tool call's context, so what the tool does (a sub-agent's
 * session, an MCP request's `traceparent`) hangs under the call's span. Everything else is the
 * provider's own.
 */
export function traceToolCalls(provider: ToolProvider, session: SessionTrace): ToolProvider {
  const traced: ToolProvider = {
    id: provider.id,
    ...(provider.kind === undefined ? {} : { kind: provider.kind }),
    listTools: (options) => provider.listTools(options),
    execute: (call, options) =>
      context.with(session.toolContext(call.callId), () => provider.execute(call, options)),
    ...(provider.instructions === undefined ? {} : { instructions: () => provider.instructions?.() }),
    ...(provider.close === undefined ? {} : { close: () => provider.close?.() ?? Promise.resolve() }),
  };
  return traced;
}

/**
 * Traces one session: starts its span and returns the config with an observer that feeds the
 * spans (then calls the config's own), so what the model is sent stays as it was, and tools that run in their call's context, and `run`, which runs
 * the session in its span's context and ends the spans with its result. `undefined` when tracing
 * is off (see `startSessionTrace`): use the config as it is.
 */
export function traceSession<C extends TraceableConfig>(
  config: C,
  options: SessionTraceOptions,
):
  | { config: C; trace: SessionTrace; run: (session: () => Promise<AgentResult>) => Promise<AgentResult> }
  | undefined {
  const session = startSessionTrace(options);
  if (session === undefined) return undefined;
  const own = config.observe;
  const observe: EventListener =
    own === undefined
      ? (event, meta) => session.handle(event, meta)
      : (event, meta) => {
          session.handle(event, meta);
          own(event, meta);
        };
  const traced: C = {
    ...config,
    observe,
    ...(config.tools === undefined
      ? {}
      : { tools: config.tools.map((tool) => (isToolProvider(tool) ? traceToolCalls(tool, session) : tool)) }),
  };
  const run = async (body: () => Promise<AgentResult>): Promise<AgentResult> => {
    try {
      const result = await context.with(session.context, body);
      session.end({ result });
      return result;
    } catch (error) {
      session.end({ error });
      throw error;
    }
  };
  return { config: traced, trace: session, run };
}
