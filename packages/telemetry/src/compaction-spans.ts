import type { CompactionRun } from '@agent/protocol';
import {
  type Attributes,
  type Context,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import { ATTR } from './attributes.js';

/** The span name of one compaction (docs/compaction.md). */
export const COMPACTION_SPAN = 'agent.compaction';

/**
 * A compaction's numbers as attributes. The summary itself stays out (it is conversation
 * content, as prompts and answers are); the handle names where the transcript is stored.
 */
export function compactionAttributes(run: CompactionRun): Attributes {
  return {
    [ATTR.turn]: run.turn,
    [ATTR.compactionIndex]: run.index,
    [ATTR.compactionOutcome]: run.outcome,
    [ATTR.compactionTrigger]: run.trigger,
    [ATTR.compactionBeforeTokens]: run.beforeTokens,
    [ATTR.compactionAfterTokens]: run.afterTokens,
    [ATTR.compactionLimitTokens]: run.limitTokens,
    [ATTR.compactionThresholdTokens]: run.thresholdTokens,
    [ATTR.compactionMessages]: run.messages,
    [ATTR.compactionFromTurn]: run.fromTurn,
    [ATTR.compactionToTurn]: run.toTurn,
    [ATTR.compactionCalls]: run.calls,
    ...(run.handle === undefined ? {} : { [ATTR.compactionHandle]: run.handle }),
    ...(run.exhausted === undefined ? {} : { [ATTR.compactionExhausted]: run.exhausted }),
    ...(run.model === undefined ? {} : { [ATTR.requestModel]: run.model }),
  };
}

/**
 * One compaction as an `agent.compaction` span under `parent` (the session), spanning its
 * duration and ending `now`; status ERROR when it failed. Returns the span's context, for the
 * summary calls' `chat` spans to hang under it.
 */
export function recordCompactionSpan(
  tracer: Tracer,
  parent: Context,
  run: CompactionRun,
  now = Date.now(),
): Context {
  const span = tracer.startSpan(
    COMPACTION_SPAN,
    { kind: SpanKind.INTERNAL, startTime: now - run.durationMs, attributes: compactionAttributes(run) },
    parent,
  );
  if (run.outcome === 'failed') {
    span.setAttribute(ATTR.errorType, 'compaction_failed');
    span.setStatus({ code: SpanStatusCode.ERROR, message: run.error ?? 'the compaction failed' });
  }
  span.end(now);
  return trace.setSpan(parent, span);
}
