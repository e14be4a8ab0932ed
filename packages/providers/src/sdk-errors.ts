import { errorMessage } from '@agent/protocol/util';
import type * as AnthropicSdk from '@anthropic-ai/sdk';
import type * as OpenAISdk from 'openai';
import { type ErrorFacts, StreamFailure } from './errors.js';
import { loadedSdks } from './peers.js';

/** What an SDK error says, or `aborted` when it only reports that the call was cancelled. */
export type SdkErrorFacts = ErrorFacts | 'aborted';

const NETWORK_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_CONNECT_TIMEOUT',
]);
const TIMEOUT_CODES = new Set(['ETIMEDOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);
const NETWORK_MESSAGE = /^(terminated|fetch failed|other side closed|socket hang up)$|premature close/i;

function readString(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** Walks an error and its causes for a transport failure (undici and Node socket errors). */
function transportOf(err: unknown): 'connection' | 'timeout' | undefined {
  let current: unknown = err;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && TIMEOUT_CODES.has(code)) return 'timeout';
    if (typeof code === 'string' && NETWORK_CODES.has(code)) return 'connection';
    if (NETWORK_MESSAGE.test(current.message)) return 'connection';
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function innermostMessage(err: Error): string {
  let message = err.message;
  let current: unknown = (err as { cause?: unknown }).cause;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    message = `${message} (${current.message})`;
    current = (current as { cause?: unknown }).cause;
  }
  return message;
}

function withoutStatusPrefix(message: string, status: number | undefined): string {
  return status !== undefined && message.startsWith(`${status} `)
    ? message.slice(String(status).length + 1)
    : message;
}

/** OpenAI SDK: `error` is the body's `error` field (an object, or a string some servers send). */
function openAIFacts(err: OpenAISdk.APIError): ErrorFacts {
  const body: unknown = err.error;
  const inner = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : undefined;
  const rawCode: unknown = inner?.code ?? err.code;
  // OpenRouter sends the HTTP status as a numeric `code` inside in-stream errors.
  const status = err.status ?? (typeof rawCode === 'number' ? rawCode : undefined);
  const own = readString(inner?.message) ?? readString(body) ?? withoutStatusPrefix(err.message, err.status);
  // OpenRouter: "Provider returned error", with the upstream provider's words in metadata.raw.
  const metadata = inner?.metadata as { raw?: unknown } | undefined;
  const raw = readString(metadata?.raw);
  const message = raw === undefined || own.includes(raw) ? own : `${own}: ${raw}`;
  const facts: ErrorFacts = { message };
  if (status !== undefined) facts.status = status;
  const code = readString(rawCode);
  if (code) facts.code = code;
  const type = readString(inner?.type) ?? readString(err.type);
  if (type) facts.type = type;
  if (err.headers) facts.headers = err.headers;
  return facts;
}

/** Anthropic SDK: `error` is the whole body, `{ type: 'error', error: { type, message } }`. */
function anthropicFacts(err: AnthropicSdk.APIError): ErrorFacts {
  const body: unknown = err.error;
  const inner = (body as { error?: Record<string, unknown> } | undefined)?.error;
  const message =
    readString(err.apiMessage) ??
    readString(inner?.message) ??
    readString(body) ??
    withoutStatusPrefix(err.message, err.status);
  const facts: ErrorFacts = { message };
  if (err.status !== undefined) facts.status = err.status;
  const type = readString(err.type) ?? readString(inner?.type);
  if (type) facts.type = type;
  const code = readString(err.errorCode);
  if (code) facts.code = code;
  if (err.headers) facts.headers = err.headers;
  return facts;
}

type ErrorClass = 'APIUserAbortError' | 'APIConnectionTimeoutError' | 'APIConnectionError' | 'APIError';

/** Whether `err` is an instance of that error class of a loaded SDK (one not loaded threw nothing). */
function isSdkError(
  err: unknown,
  name: ErrorClass,
  sdk: 'openai' | '@anthropic-ai/sdk' | 'any' = 'any',
): boolean {
  const { openai, '@anthropic-ai/sdk': anthropic } = loadedSdks();
  if (sdk !== '@anthropic-ai/sdk' && openai !== undefined && err instanceof openai[name]) return true;
  return sdk !== 'openai' && anthropic !== undefined && err instanceof anthropic[name];
}

/** Facts from any error an SDK call or its stream can throw. */
export function factsFromError(err: unknown): SdkErrorFacts {
  if (err instanceof StreamFailure) return err.facts;
  if (isSdkError(err, 'APIUserAbortError')) return 'aborted';
  if (isSdkError(err, 'APIConnectionTimeoutError')) {
    return { transport: 'timeout', message: (err as Error).message };
  }
  if (isSdkError(err, 'APIConnectionError')) {
    const connection = err as OpenAISdk.APIConnectionError;
    return {
      transport: transportOf(connection.cause) ?? 'connection',
      message: innermostMessage(connection),
    };
  }
  if (isSdkError(err, 'APIError', 'openai')) return openAIFacts(err as OpenAISdk.APIError);
  if (isSdkError(err, 'APIError', '@anthropic-ai/sdk')) return anthropicFacts(err as AnthropicSdk.APIError);
  if (err instanceof Error && err.name === 'AbortError') return 'aborted';
  if (err instanceof SyntaxError)
    return { transport: 'malformed', message: `unreadable stream data: ${err.message}` };
  const transport = transportOf(err);
  if (transport) return { transport, message: err instanceof Error ? innermostMessage(err) : String(err) };
  return { transport: 'malformed', message: errorMessage(err) };
}
