import type { GuardrailRun, ToolPolicyVerdict } from '@agent/protocol';
import { type Attributes, type Context, SpanKind, SpanStatusCode, type Tracer } from '@opentelemetry/api';
import { ATTR } from './attributes.js';

/** Whether a run stopped the session: a block, or an error that did not fail open. */
function tripped(run: GuardrailRun): boolean {
  return run.outcome === 'block' || (run.outcome === 'error' && run.failedOpen !== true);
}

/**
 * One guardrail run as a span `guardrail <name>` under `parent` (the turn, or the tool call it
 * checked), spanning the check's latency and ending `now`; status ERROR when it tripped. The
 * reason names a rule, never the text it matched, so it may be an attribute.
 */
export function recordGuardrailSpan(
  tracer: Tracer,
  parent: Context,
  run: GuardrailRun,
  now = Date.now(),
): void {
  const attributes: Attributes = {
    [ATTR.guardrailName]: run.name,
    [ATTR.guardrailStage]: run.on,
    [ATTR.guardrailPhase]: run.phase,
    [ATTR.guardrailOutcome]: run.outcome,
    ...(run.reason === undefined ? {} : { [ATTR.guardrailReason]: run.reason }),
    ...(run.failedOpen === undefined ? {} : { [ATTR.guardrailFailedOpen]: run.failedOpen }),
    ...(run.callId === undefined ? {} : { [ATTR.toolCallIdOwn]: run.callId, [ATTR.toolCallId]: run.callId }),
    ...(run.tool === undefined ? {} : { [ATTR.toolName]: run.tool }),
  };
  const span = tracer.startSpan(
    `guardrail ${run.name}`,
    { kind: SpanKind.INTERNAL, startTime: now - run.latencyMs, attributes },
    parent,
  );
  if (tripped(run)) {
    span.setAttribute(ATTR.errorType, run.outcome === 'error' ? 'guardrail_error' : 'guardrail_block');
    span.setStatus({
      code: SpanStatusCode.ERROR,
      message: run.reason ?? `guardrail ${run.name} ${run.outcome}`,
    });
  }
  span.end(now);
}

/** A tool policy decision as attributes (on the tool's span) and as the `tool_policy` span event's. */
export function policyAttributes(verdict: ToolPolicyVerdict): Attributes {
  return {
    [ATTR.policyDecision]: verdict.decision,
    [ATTR.policyRule]: verdict.ruleName,
    [ATTR.toolCallId]: verdict.callId,
    [ATTR.toolName]: verdict.tool,
    ...(verdict.reason === undefined ? {} : { [ATTR.policyReason]: verdict.reason }),
  };
}
