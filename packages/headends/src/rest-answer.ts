import type { AgentEvent, AgentEventMeta, AgentResult } from '@agent/protocol';
import type { Context } from 'hono';
import type { SessionTicket } from './admission.js';
import { writeQueue } from './admit.js';
import { GUARDRAIL_STATUS, guardrailTrip } from './guardrail-trip.js';
import { type ErrorResponder, httpError } from './http-guards.js';
import { streamEvents } from './sse-stream.js';
import { inputRejection, schemaMismatch, usageTotals } from './usage.js';

/** What a REST run (or resumed session) answers, and what the SSE `result` event carries. */
export function runResponse(result: AgentResult) {
  return {
    success: result.success,
    error: result.error,
    exitCode: result.exitCode,
    sessionId: result.sessionId,
    finalReport: result.finalReport,
    // Set when the session paused for approval: decide them with POST /v1/sessions/:id/approvals.
    ...(result.success || result.pendingApprovals === undefined
      ? {}
      : { pendingApprovals: result.pendingApprovals }),
    // Set when a guardrail ended the run (EXIT-GUARDRAIL): which one, where, and why.
    ...(result.success || result.guardrail === undefined ? {} : { guardrail: result.guardrail }),
    usage: usageTotals(result),
  };
}

/**
 * A failed run is an error, as on every face (500, docs/headends.md); REST keeps its run body
 * (exit code, error, session id, usage) so the client still learns why. A session paused for
 * approval did not fail: 200 with `pendingApprovals`. A report that missed its schema is the
 * model's answer: 200 with `success: false`, `EXIT-FINAL-REPORT-SCHEMA-MISMATCH` and the
 * report's `validationErrors`. A guardrail's trip refused the request: 422, with the trip in
 * `guardrail`.
 */
export function runStatus(result: AgentResult): 200 | 422 | 500 {
  if (result.success || result.pendingApprovals !== undefined) return 200;
  if (guardrailTrip(result) !== undefined) return GUARDRAIL_STATUS;
  return schemaMismatch(result) === undefined ? 500 : 200;
}

type Start = (onEvent?: (event: AgentEvent, meta: AgentEventMeta) => void) => Promise<AgentResult>;

/** What a REST face's SSE stream carries besides the run's usual events. */
export interface RestStreamOptions {
  /** Forward `assistant_text` events (the model's text outside the report). Default off. */
  assistantText?: boolean;
}

/**
 * Whether an event goes out on the SSE stream. `snapshot` never does: each repeats the whole
 * conversation, and the stored session is at `GET /v1/sessions/:id`. `assistant_text` only when
 * asked for: clients that take every event as the answer's would show it.
 */
export function streamsEvent(event: AgentEvent, options: RestStreamOptions): boolean {
  if (event.type === 'snapshot') return false;
  return event.type !== 'assistant_text' || options.assistantText === true;
}

/**
 * Answers a run the client was admitted for: JSON when it ends, or (with `Accept:
 * text/event-stream`) its events as SSE and a last `result` event. Releases the ticket.
 */
export async function answerRun(
  c: Context,
  ticket: SessionTicket,
  respond: ErrorResponder,
  start: Start,
  options: RestStreamOptions = {},
): Promise<Response> {
  if (!wantsEvents(c)) {
    try {
      const result = await start();
      const rejection = inputRejection(result);
      if (rejection !== undefined) return httpError(c, respond, 'bad_request', rejection);
      return c.json(runResponse(result), runStatus(result));
    } finally {
      ticket.release();
    }
  }
  return streamEvents(c, {}, async (stream) => {
    stream.onAbort(() => ticket.abort('client disconnected'));
    try {
      const writes = writeQueue(stream);
      const result = await start((event, meta) => {
        if (!streamsEvent(event, options)) return;
        writes.push({ event: event.type, data: JSON.stringify({ event, meta }) });
      });
      writes.push({ event: 'result', data: JSON.stringify(runResponse(result)) });
      await writes.flush();
    } finally {
      ticket.release();
    }
  });
}

function wantsEvents(c: Context): boolean {
  return (c.req.header('accept') ?? '').includes('text/event-stream');
}
