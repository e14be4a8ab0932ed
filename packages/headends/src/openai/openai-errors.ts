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
