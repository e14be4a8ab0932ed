import type { ModelErrorKind } from '@agent/protocol';
import type { ScriptedError } from '../steps.js';
import { type Frame, JSON_HEADERS, malformedFrame, SSE_HEADERS, sseFrame, type WireApi } from './sse.js';
import type { WireAnswer } from './wire-answer.js';

/** What the failing call was, for messages that name the model and the prompt size. */
export interface ErrorContext {
  api: WireApi;
  model: string;
  requestId: string;
  inputTokens: number;
  streaming: boolean;
}

interface OpenAIError {
  message: string;
  type: string | null;
  param: string | null;
  code: string | null;
}

/** Status each kind maps to, before a scripted `status` override. */
const STATUS: Record<ModelErrorKind, { openai: number; anthropic: number }> = {
  auth: { openai: 401, anthropic: 401 },
  quota: { openai: 429, anthropic: 400 },
  rate_limit: { openai: 429, anthropic: 429 },
  timeout: { openai: 504, anthropic: 504 },
  network: { openai: 0, anthropic: 0 },
  server: { openai: 500, anthropic: 500 },
  bad_request: { openai: 400, anthropic: 400 },
  context_length: { openai: 400, anthropic: 400 },
  model_not_found: { openai: 404, anthropic: 404 },
  content_filter: { openai: 400, anthropic: 400 },
  invalid_response: { openai: 200, anthropic: 200 },
  aborted: { openai: 499, anthropic: 499 },
};

/** Anthropic's `error.type` for each status it uses. */
const ANTHROPIC_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  504: 'timeout_error',
  529: 'overloaded_error',
};

function openAIErrorBody(
  message: string,
  type: string | null,
  code: string | null = null,
  param: string | null = null,
): OpenAIError {
  return { message, type, param, code };
}

/** OpenAI's error for each kind whose wording never changes. */
const FIXED_OPENAI_ERRORS: Partial<Record<ModelErrorKind, OpenAIError>> = {
  auth: openAIErrorBody(
    'Incorrect API key provided: test. You can find your API key at https://platform.openai.com/account/api-keys.',
    'invalid_request_error',
    'invalid_api_key',
  ),
  quota: openAIErrorBody(
    'You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.',
    'insufficient_quota',
    'insufficient_quota',
  ),
  content_filter: openAIErrorBody(
    "The response was filtered due to the prompt triggering the provider's content management policy.",
    'invalid_request_error',
    'content_filter',
    'prompt',
  ),
  bad_request: openAIErrorBody('Invalid request (scripted bad_request error).', 'invalid_request_error'),
  timeout: openAIErrorBody('Request timed out.', 'timeout'),
  aborted: openAIErrorBody('Client closed request.', 'client_closed_request'),
};

/** OpenAI's error for the kinds whose wording names the model, the prompt size or the wait. */
function openAIErrorAboutCall(
  kind: ModelErrorKind,
  context: ErrorContext,
  retrySeconds: number,
): OpenAIError | undefined {
  switch (kind) {
    case 'rate_limit':
      return openAIErrorBody(
        `Rate limit reached for ${context.model} in organization org-testkit on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in ${retrySeconds}s. Visit https://platform.openai.com/account/rate-limits to learn more.`,
        'requests',
        'rate_limit_exceeded',
      );
    case 'context_length':
      return openAIErrorBody(
        `This model's maximum context length is 128000 tokens. However, your messages resulted in ${128_000 + context.inputTokens} tokens. Please reduce the length of the messages.`,
        'invalid_request_error',
        'context_length_exceeded',
        'messages',
      );
    case 'model_not_found':
      return openAIErrorBody(
        `The model \`${context.model}\` does not exist or you do not have access to it.`,
        'invalid_request_error',
        'model_not_found',
      );
    default:
      return undefined;
  }
}

function openAIError(
  kind: ModelErrorKind,
  status: number,
  context: ErrorContext,
  retrySeconds = 20,
): OpenAIError {
  const fixed = FIXED_OPENAI_ERRORS[kind];
  // A copy: the caller overwrites `message` with a scripted one.
  if (fixed !== undefined) return { ...fixed };
  return openAIErrorAboutCall(kind, context, retrySeconds) ?? openAIServerError(status);
}

/** Every other kind reads as a server error; 503 as the overloaded one. */
function openAIServerError(status: number): OpenAIError {
  return status === 503
    ? openAIErrorBody('The server is overloaded or not ready yet.', 'server_error')
    : openAIErrorBody(
        'The server had an error while processing your request. Sorry about that!',
        'server_error',
      );
}

function anthropicMessage(kind: ModelErrorKind, status: number, context: ErrorContext): string {
  switch (kind) {
    case 'auth':
      return 'invalid x-api-key';
    case 'quota':
      return 'Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits.';
    case 'rate_limit':
      return 'Number of request tokens has exceeded your per-minute rate limit (https://docs.claude.com/en/api/rate-limits); see the response headers for current usage. Please reduce the prompt length or the maximum tokens requested, or try again later.';
    case 'context_length':
      return `prompt is too long: ${200_000 + context.inputTokens} tokens > 200000 maximum`;
    case 'model_not_found':
      return `model: ${context.model}`;
    case 'content_filter':
      return 'Output blocked by content filtering policy';
    case 'bad_request':
      return 'Invalid request (scripted bad_request error).';
    case 'timeout':
      return 'Request timed out.';
    case 'aborted':
      return 'Client closed request.';
    default:
      return status === 529 ? 'Overloaded' : 'Internal server error';
  }
}

/** Status, headers and JSON body of a scripted error as the API really sends it. */
export function errorResponse(
  error: ScriptedError,
  context: ErrorContext,
): { status: number; headers: Record<string, string>; body: Record<string, unknown> } {
  const openai = context.api !== 'anthropic';
  const status = error.status ?? STATUS[error.kind][openai ? 'openai' : 'anthropic'];
  const headers: Record<string, string> = { ...JSON_HEADERS };
  const retrySeconds = error.retryAfterMs === undefined ? undefined : Math.ceil(error.retryAfterMs / 1000);
  if (openai) {
    headers['x-request-id'] = context.requestId;
    if (retrySeconds !== undefined) {
      headers['retry-after'] = String(retrySeconds);
      headers['retry-after-ms'] = String(error.retryAfterMs);
    }
    if (error.kind === 'rate_limit') {
      Object.assign(headers, {
        'x-ratelimit-limit-requests': '3',
        'x-ratelimit-remaining-requests': '0',
        'x-ratelimit-reset-requests': `${retrySeconds ?? 20}s`,
      });
    }
    const body = openAIError(error.kind, status, context, retrySeconds);
    if (error.message !== undefined) body.message = error.message;
    return { status, headers, body: { error: body } };
  }
  headers['request-id'] = context.requestId;
  if (retrySeconds !== undefined) headers['retry-after'] = String(retrySeconds);
  if (error.kind === 'rate_limit') {
    Object.assign(headers, {
      'anthropic-ratelimit-requests-limit': '50',
      'anthropic-ratelimit-requests-remaining': '0',
      'anthropic-ratelimit-requests-reset': new Date(
        Date.now() + (error.retryAfterMs ?? 20_000),
      ).toISOString(),
    });
  }
  const type = ANTHROPIC_TYPES[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
  const message = error.message ?? anthropicMessage(error.kind, status, context);
  return {
    status,
    headers,
    body: { type: 'error', error: { type, message }, request_id: context.requestId },
  };
}

/** The whole answer to a call that fails before answering. */
export function errorAnswer(error: ScriptedError, context: ErrorContext): WireAnswer {
  if (error.kind === 'network') return { type: 'drop' };
  if (error.kind === 'invalid_response' && error.status === undefined) {
    const idHeader = context.api === 'anthropic' ? 'request-id' : 'x-request-id';
    if (context.streaming) {
      const headers = { ...SSE_HEADERS, [idHeader]: context.requestId };
      return {
        type: 'stream',
        api: context.api,
        status: 200,
        headers,
        frames: [malformedFrame(context.api)],
      };
    }
    return {
      type: 'body',
      status: 200,
      headers: { ...JSON_HEADERS, [idHeader]: context.requestId },
      body: '{"id": "broken',
    };
  }
  const { status, headers, body } = errorResponse(error, context);
  return { type: 'body', status, headers, body: JSON.stringify(body) };
}

/** The in-stream error event each API sends when a started stream fails (`midStream`). */
export function midStreamErrorFrames(error: ScriptedError, context: ErrorContext, sequence: number): Frame[] {
  const { body } = errorResponse(error, context);
  if (context.api === 'anthropic') return [sseFrame(body, { event: 'error' })];
  const detail = body.error as OpenAIError;
  if (context.api === 'openai-chat') return [sseFrame({ error: detail })];
  // As recorded from the real API (fixtures/openai-responses/openai-error.1.chunks.txt).
  return [sseFrame({ type: 'error', sequence_number: sequence, error: detail }, { event: 'error' })];
}

/**
 * An error of the testkit itself (unplanned call, unreadable replay, bad request body) in the API's
 * error shape, with `x-should-retry: false` so the SDKs do not retry it.
 */
export function testkitErrorAnswer(
  api: WireApi,
  status: number,
  message: string,
  requestId: string,
): WireAnswer {
  const headers: Record<string, string> = { ...JSON_HEADERS, 'x-should-retry': 'false' };
  if (api === 'anthropic') {
    headers['request-id'] = requestId;
    const type = ANTHROPIC_TYPES[status] ?? 'api_error';
    return {
      type: 'body',
      status,
      headers,
      body: JSON.stringify({ type: 'error', error: { type, message }, request_id: requestId }),
    };
  }
  headers['x-request-id'] = requestId;
  const type = status >= 500 ? 'testkit_error' : 'invalid_request_error';
  return {
    type: 'body',
    status,
    headers,
    body: JSON.stringify({ error: { message, type, param: null, code: null } }),
  };
}
