import type { Context } from 'hono';
import { GUARDRAIL_STATUS, type TripAnswer } from '../guardrail-trip.js';
import type { ErrorResponder, HttpErrorKind } from '../http-guards.js';

const TYPES: Record<HttpErrorKind, { type: string; code: string | null }> = {
  unauthorized: { type: 'invalid_request_error', code: 'invalid_api_key' },
  forbidden: { type: 'invalid_request_error', code: 'forbidden_host' },
  too_large: { type: 'invalid_request_error', code: 'request_too_large' },
  bad_request: { type: 'invalid_request_error', code: null },
  not_found: { type: 'invalid_request_error', code: 'model_not_found' },
  conflict: { type: 'invalid_request_error', code: 'conflict' },
  queue_full: { type: 'rate_limit_error', code: 'rate_limit_exceeded' },
  draining: { type: 'server_error', code: 'server_shutting_down' },
  server_error: { type: 'server_error', code: null },
};

/** OpenAI's error body: `{ error: { message, type, param, code } }`. */
export function openAiErrorBody(kind: HttpErrorKind, message: string) {
  const { type, code } = TYPES[kind];
  return { error: { message, type, param: null, code } };
}

export const respondOpenAi: ErrorResponder = (c, status, kind, message) =>
  c.json(openAiErrorBody(kind, message), status as 400);

/** A guardrail trip as OpenAI's error body: type `guardrail_tripped`, the guardrail as `code`. */
export function openAiGuardrailBody(answer: TripAnswer) {
  return {
    error: { message: answer.message, type: 'guardrail_tripped', param: null, code: answer.trip.name },
  };
}

/** A guardrail trip as a whole OpenAI answer: 422 with the trip's error body. */
export function respondOpenAiTrip(c: Context, answer: TripAnswer): Response {
  return c.json(openAiGuardrailBody(answer), GUARDRAIL_STATUS);
}
