import type { Context } from 'hono';
import { GUARDRAIL_STATUS, type TripAnswer } from '../guardrail-trip.js';
import type { ErrorResponder, HttpErrorKind } from '../http-guards.js';

const TYPES: Record<HttpErrorKind, string> = {
  unauthorized: 'authentication_error',
  forbidden: 'permission_error',
  too_large: 'request_too_large',
  bad_request: 'invalid_request_error',
  not_found: 'not_found_error',
  conflict: 'invalid_request_error',
  queue_full: 'rate_limit_error',
  draining: 'overloaded_error',
  server_error: 'api_error',
};

/** Anthropic's error body: `{ type: 'error', error: { type, message } }`. */
export function anthropicErrorBody(kind: HttpErrorKind, message: string) {
  return { type: 'error', error: { type: TYPES[kind], message } };
}

export const respondAnthropic: ErrorResponder = (c, status, kind, message) =>
  c.json(anthropicErrorBody(kind, message), status as 400);

/** A guardrail trip as Anthropic's error body: type `guardrail_tripped` (the guardrail named in the message). */
export function anthropicGuardrailBody(answer: TripAnswer) {
  return { type: 'error', error: { type: 'guardrail_tripped', message: answer.message } };
}

/** A guardrail trip as a whole Anthropic answer: 422 with the trip's error body. */
export function respondAnthropicTrip(c: Context, answer: TripAnswer): Response {
  return c.json(anthropicGuardrailBody(answer), GUARDRAIL_STATUS);
}
