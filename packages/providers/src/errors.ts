import { AgentError, ModelError, type ModelErrorKind } from '@agent/protocol';
import { redactSecrets } from './redact.js';
import { type HeadersLike, retryAfterMsFromHeaders } from './retry-after.js';

/** What is known about a failure, whichever SDK or layer it came from. */
export interface ErrorFacts {
  /** HTTP status, when there was a response. */
  status?: number;
  /** Provider error code, e.g. `insufficient_quota`, `context_length_exceeded`. */
  code?: string;
  /** Provider error type, e.g. `overloaded_error`, `invalid_request_error`. */
  type?: string;
  /** The provider's own message (redacted before it goes anywhere). */
  message?: string;
  headers?: HeadersLike;
  /** A failure below HTTP: no connection, no answer in time, or bytes that are not the protocol. */
  transport?: 'connection' | 'timeout' | 'malformed';
}

/** Thrown by the stream mappers for a failure the stream itself reports or shows. */
export class StreamFailure extends AgentError {
  override readonly name = 'StreamFailure';
  constructor(readonly facts: ErrorFacts) {
    super('stream_failed', facts.message ?? 'stream failure');
  }
}

/** A stream that breaks the protocol (events out of order, missing terminal event). */
export function malformedStream(message: string): StreamFailure {
  return new StreamFailure({ transport: 'malformed', message });
}

/** Who failed, and which values must never show in the error. */
export interface ErrorContext {
  provider: string;
  model: string;
  secrets: readonly string[];
}

const CONTEXT_RE =
  /context[ _-]?length|context window|context size|maximum context|prompt is too long|input is too long|too many (?:input )?tokens|reduce the length|exceeds? the (?:available )?context|max_tokens_exceeded_context/i;
const QUOTA_RE =
  /insufficient[ _]quota|exceeded your current quota|credit balance|insufficient (?:credits|funds|balance)|billing|payment required|out of credits/i;
const CONTENT_FILTER_RE =
  /content[ _]filter|content[ _]policy|content management policy|flagged by|moderation/i;

const QUOTA_CODES = new Set([
  'insufficient_quota',
  'billing_error',
  'billing_hard_limit_reached',
  'quota_exceeded',
]);
const CONTEXT_CODES = new Set(['context_length_exceeded', 'exceed_context_size_error', 'request_too_large']);
const FILTER_CODES = new Set(['content_filter', 'content_policy_violation', 'moderation_error']);
const SERVER_TYPES = new Set(['overloaded_error', 'api_error', 'server_error', 'internal_server_error']);
const RATE_TYPES = new Set(['rate_limit_error', 'rate_limit_exceeded', 'tokens', 'requests']);
const AUTH_TYPES = new Set([
  'authentication_error',
  'invalid_api_key',
  'permission_error',
  'permission_denied',
]);
const NOT_FOUND_TYPES = new Set(['not_found_error', 'model_not_found']);

interface Signals {
  context: boolean;
  quota: boolean;
  filter: boolean;
}

function signalsOf(facts: ErrorFacts): Signals {
  const codes = [facts.code, facts.type].filter((v): v is string => typeof v === 'string');
  const message = facts.message ?? '';
  return {
    context: codes.some((c) => CONTEXT_CODES.has(c)) || CONTEXT_RE.test(message),
    quota: codes.some((c) => QUOTA_CODES.has(c)) || QUOTA_RE.test(message),
    filter: codes.some((c) => FILTER_CODES.has(c)) || CONTENT_FILTER_RE.test(message),
  };
}

function classifyRequestError(s: Signals): ModelErrorKind {
  if (s.context) return 'context_length';
  if (s.quota) return 'quota';
  if (s.filter) return 'content_filter';
  return 'bad_request';
}

function classifyStatus(status: number, s: Signals): ModelErrorKind {
  if (status === 401) return 'auth';
  if (status === 403) return s.filter ? 'content_filter' : s.quota ? 'quota' : 'auth';
  if (status === 402) return 'quota';
  if (status === 404) return 'model_not_found';
  if (status === 408) return 'timeout';
  if (status === 413) return 'context_length';
  if (status === 429) return s.quota ? 'quota' : 'rate_limit';
  if (status === 499) return 'aborted';
  if (status === 504) return 'timeout';
  if (status >= 500) return s.context ? 'context_length' : 'server';
  if (status === 409 || status === 425) return 'server';
  return classifyRequestError(s);
}

/** An error without an HTTP status: an error event inside a stream, classified by its type and code. */
function classifyStreamError(facts: ErrorFacts, s: Signals): ModelErrorKind {
  const codes = [facts.code, facts.type].filter((v): v is string => typeof v === 'string');
  if (s.quota) return 'quota';
  if (s.context) return 'context_length';
  if (codes.some((c) => AUTH_TYPES.has(c))) return 'auth';
  if (codes.some((c) => NOT_FOUND_TYPES.has(c))) return 'model_not_found';
  if (codes.some((c) => RATE_TYPES.has(c))) return 'rate_limit';
  if (s.filter) return 'content_filter';
  if (codes.includes('timeout_error') || codes.includes('timeout')) return 'timeout';
  if (codes.some((c) => SERVER_TYPES.has(c))) return 'server';
  if (codes.includes('invalid_request_error')) return 'bad_request';
  return 'server';
}

/** The error kind for a set of facts (see docs/providers.md for the table). */
export function classifyError(facts: ErrorFacts): ModelErrorKind {
  if (facts.transport === 'connection') return 'network';
  if (facts.transport === 'timeout') return 'timeout';
  if (facts.transport === 'malformed') return 'invalid_response';
  const signals = signalsOf(facts);
  if (facts.status !== undefined) return classifyStatus(facts.status, signals);
  return classifyStreamError(facts, signals);
}

const LABELS: Record<ModelErrorKind, string> = {
  auth: 'authentication failed',
  quota: 'quota or credit exhausted',
  rate_limit: 'rate limited',
  timeout: 'timed out',
  network: 'network error',
  server: 'provider server error',
  bad_request: 'request rejected',
  context_length: 'context window exceeded',
  model_not_found: 'model not found',
  content_filter: 'blocked by the content filter',
  invalid_response: 'invalid response',
  aborted: 'aborted',
};

/** Builds the protocol error for a failure; every text in it is redacted. */
export function modelErrorFromFacts(
  facts: ErrorFacts,
  context: ErrorContext,
  options: { kind?: ModelErrorKind; cause?: unknown } = {},
): ModelError {
  const kind = options.kind ?? classifyError(facts);
  const providerMessage =
    facts.message === undefined ? undefined : redactSecrets(facts.message, context.secrets).slice(0, 2000);
  const status = facts.status === undefined ? '' : ` (HTTP ${facts.status})`;
  const detail = providerMessage ? `: ${providerMessage}` : '';
  const message = redactSecrets(
    `${context.provider}/${context.model}: ${LABELS[kind]}${status}${detail}`,
    context.secrets,
  );
  const retryAfterMs = retryAfterMsFromHeaders(facts.headers);
  return new ModelError({
    kind,
    message,
    provider: context.provider,
    model: context.model,
    ...(providerMessage === undefined ? {} : { providerMessage }),
    ...(facts.status === undefined ? {} : { status: facts.status }),
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    ...(options.cause === undefined ? {} : { cause: options.cause }),
  });
}

/** A copy of an error that is safe to keep as `cause`: its name and redacted message, no headers or bodies. */
export function sanitizedCause(err: unknown, secrets: readonly string[]): Error {
  const source = err instanceof Error ? err : new Error(String(err));
  const copy = new Error(redactSecrets(source.message, secrets));
  copy.name = source.name;
  return copy;
}
