import type {
  AgentEvent,
  AgentEventMeta,
  AgentResult,
  CompactionRun,
  LlmAccountingEntry,
  ProgressEvent,
  ToolAccountingEntry,
  ToolPolicyVerdict,
} from '@agent/protocol';
import {
  type Attributes,
  type Context,
  context,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import { ATTR, OPERATION } from './attributes.js';
import { recordCompactionSpan } from './compaction-spans.js';
import { policyAttributes, recordGuardrailSpan } from './guardrail-spans.js';

/** The instrumentation scope name of every span this package makes. */
export const TRACER_NAME = '@agent/telemetry';

export interface SessionTraceOptions {
  /** The agent's name (`gen_ai.agent.name`, and the span's name `invoke_agent <name>`). */
  name: string;
  sessionId: string;
  /** Dotted agent path from the root session. */
  agentPath: string;
  /** The parent context: an incoming `traceparent`, a parent's tool call. Default: the active context. */
  parent?: Context;
  /** Default: the global provider's tracer named `@agent/telemetry`. */
  tracer?: Tracer;
}

interface OpenTool {
  span: Span;
  /** The `tool_finished` message (`failed in 3 ms: why`), kept for the exception event. */
  message?: string;
}

/**
 * The spans of one session, made from its events: `invoke_agent <name>` for the session, `turn N`
 * under it, `chat <model>` (an LLM attempt) and `execute_tool <tool>` under the turn. A sub-agent's
 * session is a session of its own whose parent is its tool call's span (`toolContext`).
 *
 * LLM spans are made when the attempt's accounting entry arrives (its timestamp and latency give
 * start and end); tool spans start at `tool_started` and end at the call's accounting entry.
 * Guardrail runs are `guardrail <name>` spans (their latency) under the turn or the call they
 * checked; a tool policy decision is attributes and a `tool_policy` event on the call's span.
 * A compaction is an `agent.compaction` span under the session's; its summary calls (accounted
 * before the `compaction` event arrives) are held until then and become `chat` spans under it.
 */
export class SessionTrace {
  readonly span: Span;
  readonly context: Context;
  private readonly tracer: Tracer;
  private readonly sessionId: string;
  private turn: Span | undefined;
  private turnContext: Context;
  private readonly tools = new Map<string, OpenTool>();
  /** Policy decisions of calls whose span has not started yet (the policy decides first). */
  private readonly policies = new Map<string, ToolPolicyVerdict>();
  /** Summary calls of the compaction under way, waiting for its `compaction` event. */
  private summaryCalls: LlmAccountingEntry[] = [];
  private compacted = 0;
  private ended = false;

  constructor(span: Span, parent: Context, tracer: Tracer, sessionId: string) {
    this.span = span;
    this.tracer = tracer;
    this.sessionId = sessionId;
    this.context = trace.setSpan(parent, span);
    this.turnContext = this.context;
  }

  /**
   * Feeds one event (from the core's `observe` hook: no streamed deltas, no logs); events of
   * other sessions (sub-agents share listeners) are ignored.
   */
  handle(event: AgentEvent, meta: AgentEventMeta): void {
    if (this.ended || meta.sessionId !== this.sessionId) return;
    switch (event.type) {
      case 'turn_started':
        this.startTurn(event);
        return;
      case 'accounting':
        if (event.entry.type === 'llm' && event.entry.purpose === 'compaction')
          this.summaryCalls.push(event.entry);
        else if (event.entry.type === 'llm') this.llmCall(event.entry, this.turnContext);
        else if (event.entry.type === 'tool') this.toolAccounted(event.entry);
        return;
      case 'progress':
        this.progress(event.event);
        return;
      case 'guardrail':
        // A tool-stage run hangs under the call it checked while that span is open.
        recordGuardrailSpan(
          this.tracer,
          event.run.callId === undefined ? this.turnContext : this.toolContext(event.run.callId),
          event.run,
        );
        return;
      case 'tool_policy':
        this.toolPolicy(event.verdict);
        return;
      case 'compaction':
        this.compaction(event.run);
        return;
      case 'cache_hit':
        this.span.addEvent('cache_hit', {
          'agent.cache.kind': event.hit.kind,
          'agent.cache.backend': event.hit.backend,
          ...(event.hit.tool === undefined ? {} : { [ATTR.toolName]: event.hit.tool }),
        });
        return;
      case 'final_report':
      case 'handoff':
        this.span.setAttributes({
          [ATTR.reportStatus]: event.report.status,
          [ATTR.reportFormat]: event.report.format,
        });
        return;
      default:
        return;
    }
  }

  /** The context a tool call runs in: its span when it is open, else the current turn's. */
  toolContext(callId: string): Context {
    const open = this.tools.get(callId);
    return open === undefined ? this.turnContext : trace.setSpan(this.turnContext, open.span);
  }

  /** Ends every open span: the session's with the result's outcome (or the error it threw). */
  end(outcome: { result: AgentResult } | { error: unknown }): void {
    if (this.ended) return;
    // Summary calls of a compaction whose event never came (the session ended first).
    for (const entry of this.summaryCalls) this.llmCall(entry, this.context);
    this.summaryCalls = [];
    if (this.compacted > 0) this.span.setAttribute(ATTR.compactions, this.compacted);
    for (const open of this.tools.values()) open.span.end();
    this.tools.clear();
    this.policies.clear();
    this.turn?.end();
    this.ended = true;
    if ('error' in outcome) {
      fail(this.span, 'exception', outcome.error instanceof Error ? outcome.error : String(outcome.error));
    } else {
      const { result } = outcome;
      this.span.setAttribute(ATTR.exitCode, result.exitCode);
      const totals = result.opTree?.totals;
      if (totals !== undefined)
        this.span.setAttributes({
          [ATTR.inputTokens]: totals.inputTokens,
          [ATTR.outputTokens]: totals.outputTokens,
          [ATTR.cacheReadTokens]: totals.cachedTokens,
          [ATTR.costUsd]: totals.costUsd,
        });
      if (!result.success && result.guardrail !== undefined)
        this.span.setAttribute(ATTR.guardrailTripped, result.guardrail.name);
      if (result.success) this.span.setStatus({ code: SpanStatusCode.OK });
      else fail(this.span, result.exitCode, result.error);
    }
    this.span.end();
  }

  private startTurn(event: Extract<AgentEvent, { type: 'turn_started' }>): void {
    this.turn?.end();
    // Built by assignment: a conditional spread copies the object the slow way, every turn.
    const attributes: Attributes = {
      [ATTR.turn]: event.turn,
      [ATTR.attempt]: event.attempt,
      [ATTR.finalTurn]: event.isFinalTurn,
    };
    if (event.retrySlugs !== undefined) attributes['agent.retry_slugs'] = event.retrySlugs;
    this.turn = this.tracer.startSpan(
      `turn ${event.turn}`,
      { kind: SpanKind.INTERNAL, attributes },
      this.context,
    );
    this.turnContext = trace.setSpan(this.context, this.turn);
  }

  private compaction(run: CompactionRun): void {
    const parent = recordCompactionSpan(this.tracer, this.context, run);
    for (const entry of this.summaryCalls) this.llmCall(entry, parent);
    this.summaryCalls = [];
    if (run.outcome === 'compacted') this.compacted += 1;
  }

  private llmCall(entry: LlmAccountingEntry, parent: Context): void {
    const attributes: Attributes = {
      [ATTR.operationName]: OPERATION.chat,
      [ATTR.providerName]: entry.actualProvider ?? entry.provider,
      [ATTR.requestModel]: entry.model,
      [ATTR.responseModel]: entry.actualModel ?? entry.model,
      [ATTR.inputTokens]: entry.tokens.inputTokens,
      [ATTR.outputTokens]: entry.tokens.outputTokens,
    };
    if (entry.tokens.cachedTokens !== undefined) attributes[ATTR.cacheReadTokens] = entry.tokens.cachedTokens;
    if (entry.stopReason !== undefined) attributes[ATTR.finishReasons] = [entry.stopReason];
    if (entry.costUsd !== undefined) attributes[ATTR.costUsd] = entry.costUsd;
    if (entry.attempt !== undefined) attributes[ATTR.attempt] = entry.attempt;
    if (entry.cached === true) attributes[ATTR.cached] = true;
    if (entry.purpose !== undefined) attributes[ATTR.llmPurpose] = entry.purpose;
    const span = this.tracer.startSpan(
      `${OPERATION.chat} ${entry.model}`,
      { kind: SpanKind.CLIENT, startTime: entry.timestamp - entry.latency, attributes },
      parent,
    );
    if (entry.status === 'failed') fail(span, entry.error ?? 'failed', entry.error ?? 'the call failed');
    span.end(entry.timestamp);
  }

  private progress(event: ProgressEvent): void {
    if (event.type === 'tool_started') {
      const span = this.tracer.startSpan(
        `${OPERATION.executeTool} ${event.tool}`,
        {
          kind: SpanKind.INTERNAL,
          attributes: {
            [ATTR.operationName]: OPERATION.executeTool,
            [ATTR.toolName]: event.tool,
            [ATTR.toolCallId]: event.callId,
            [ATTR.toolType]: 'function',
          },
        },
        this.turnContext,
      );
      this.tools.set(event.callId, { span });
      const policy = this.policies.get(event.callId);
      if (policy !== undefined) {
        this.policies.delete(event.callId);
        span.setAttributes(policyAttributes(policy));
        span.addEvent('tool_policy', policyAttributes(policy));
      }
    } else if (event.type === 'tool_finished') {
      const open = this.tools.get(event.callId);
      // `failed in 12 ms: why` -> `why`, the exception's message.
      if (open !== undefined && event.message !== undefined)
        open.message = event.message.replace(/^failed in \d+ ms: /, '');
    }
  }

  /**
   * A policy decision: on the call's span when it is open, kept for it when it has yet to start;
   * a denied call never starts, so its decision is an event on the turn's span.
   */
  private toolPolicy(verdict: ToolPolicyVerdict): void {
    const open = this.tools.get(verdict.callId);
    if (open !== undefined) {
      open.span.setAttributes(policyAttributes(verdict));
      open.span.addEvent('tool_policy', policyAttributes(verdict));
    } else if (verdict.decision === 'deny') {
      (this.turn ?? this.span).addEvent('tool_policy', policyAttributes(verdict));
    } else {
      this.policies.set(verdict.callId, verdict);
    }
  }

  private toolAccounted(entry: ToolAccountingEntry): void {
    if (entry.callId === undefined) return;
    const open = this.tools.get(entry.callId);
    if (open === undefined) return;
    this.tools.delete(entry.callId);
    open.span.setAttribute(ATTR.toolServer, entry.mcpServer);
    if (entry.cached === true) open.span.setAttribute(ATTR.cached, true);
    if (entry.status === 'failed')
      fail(open.span, entry.error ?? 'failed', open.message ?? entry.error ?? 'failed');
    open.span.end(entry.timestamp);
  }
}

/** Status ERROR, `error.type`, and an `exception` event with the message. */
function fail(span: Span, type: string, error: Error | string): void {
  const message = typeof error === 'string' ? error : error.message;
  span.setAttribute(ATTR.errorType, type);
  span.recordException(typeof error === 'string' ? { name: type, message } : error);
  span.setStatus({ code: SpanStatusCode.ERROR, message });
}

/**
 * Starts the session's span, or returns `undefined` when nothing records it (no tracer provider
 * registered, or the sampler dropped it): then the caller wires nothing and the session runs as
 * it would without this package. That one check is all tracing costs when it is off.
 */
export function startSessionTrace(options: SessionTraceOptions): SessionTrace | undefined {
  const tracer = options.tracer ?? trace.getTracer(TRACER_NAME);
  const parent = options.parent ?? context.active();
  const span = tracer.startSpan(
    `${OPERATION.invokeAgent} ${options.name}`,
    {
      kind: SpanKind.INTERNAL,
      attributes: {
        [ATTR.operationName]: OPERATION.invokeAgent,
        [ATTR.agentName]: options.name,
        [ATTR.agentId]: options.agentPath,
        [ATTR.agentPath]: options.agentPath,
        [ATTR.sessionId]: options.sessionId,
      },
    },
    parent,
  );
  if (!span.isRecording()) return undefined;
  return new SessionTrace(span, parent, tracer, options.sessionId);
}
