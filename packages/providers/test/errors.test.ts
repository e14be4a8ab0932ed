// Error classification: HTTP status, provider codes and messages, in-stream error events,
// transport failures; and the retry-after headers.

import type { ModelErrorKind } from '@agent/protocol';
import { describe, expect, it } from 'vitest';
import { modelErrorFromFacts } from '../src/errors.js';
import { classifyError, type ErrorFacts, retryAfterMsFromHeaders } from '../src/index.js';
import { loadSdk } from '../src/peers.js';
import { factsFromError } from '../src/sdk-errors.js';

// The SDKs as the clients load them (lazily, by the loader): their errors are the ones classified.
const OpenAISdk = loadSdk('openai', 'test');
const AnthropicSdk = loadSdk('@anthropic-ai/sdk', 'test');

const cases: [string, ErrorFacts, ModelErrorKind][] = [
  ['401', { status: 401 }, 'auth'],
  ['403 permission', { status: 403, message: 'Project does not have access' }, 'auth'],
  [
    '403 moderation (OpenRouter)',
    { status: 403, message: 'Your input was flagged by moderation' },
    'content_filter',
  ],
  ['402', { status: 402 }, 'quota'],
  [
    '429 insufficient_quota',
    { status: 429, code: 'insufficient_quota', message: 'You exceeded your current quota' },
    'quota',
  ],
  ['429 rate limit', { status: 429, code: 'rate_limit_exceeded', type: 'requests' }, 'rate_limit'],
  ['400 context_length_exceeded', { status: 400, code: 'context_length_exceeded' }, 'context_length'],
  [
    '400 Anthropic prompt too long',
    { status: 400, message: 'prompt is too long: 210000 tokens > 200000 maximum' },
    'context_length',
  ],
  [
    '400 vLLM context',
    { status: 400, message: "This model's maximum context length is 4096 tokens." },
    'context_length',
  ],
  [
    '400 llama.cpp context',
    {
      status: 400,
      type: 'exceed_context_size_error',
      message: 'the request exceeds the available context size',
    },
    'context_length',
  ],
  [
    '400 Anthropic credit balance',
    { status: 400, message: 'Your credit balance is too low to access the Anthropic API.' },
    'quota',
  ],
  ['400 billing_error type', { status: 400, type: 'billing_error' }, 'quota'],
  ['400 Azure content filter', { status: 400, code: 'content_filter' }, 'content_filter'],
  ['400 plain', { status: 400, message: 'messages: field required' }, 'bad_request'],
  ['422', { status: 422 }, 'bad_request'],
  ['404', { status: 404 }, 'model_not_found'],
  ['408', { status: 408 }, 'timeout'],
  ['413 request too large', { status: 413, type: 'request_too_large' }, 'context_length'],
  ['499', { status: 499 }, 'aborted'],
  ['500', { status: 500 }, 'server'],
  ['502', { status: 502 }, 'server'],
  ['503', { status: 503 }, 'server'],
  ['504', { status: 504 }, 'timeout'],
  ['529 overloaded', { status: 529, type: 'overloaded_error' }, 'server'],
  ['stream: overloaded_error', { type: 'overloaded_error', message: 'Overloaded' }, 'server'],
  ['stream: api_error', { type: 'api_error' }, 'server'],
  ['stream: rate_limit_error', { type: 'rate_limit_error' }, 'rate_limit'],
  ['stream: insufficient_quota', { code: 'insufficient_quota', type: 'insufficient_quota' }, 'quota'],
  ['stream: authentication_error', { type: 'authentication_error' }, 'auth'],
  [
    'stream: invalid_request_error, too long',
    { type: 'invalid_request_error', message: 'prompt is too long' },
    'context_length',
  ],
  ['stream: invalid_request_error', { type: 'invalid_request_error', message: 'bad' }, 'bad_request'],
  ['stream: unknown', { message: 'something broke' }, 'server'],
  ['transport: connection', { transport: 'connection' }, 'network'],
  ['transport: timeout', { transport: 'timeout' }, 'timeout'],
  ['transport: malformed', { transport: 'malformed' }, 'invalid_response'],
];

describe('classifyError', () => {
  it.each(cases)('%s -> %s', (_, facts, kind) => {
    expect(classifyError(facts)).toBe(kind);
  });
});

describe('modelErrorFromFacts', () => {
  const context = { provider: 'openai', model: 'gpt-4o', secrets: ['sk-live-123456'] };

  it('names provider, model, kind and status, keeps the provider message redacted', () => {
    const error = modelErrorFromFacts(
      { status: 429, message: 'Slow down, sk-live-123456', headers: { 'Retry-After': '7' } },
      context,
    );
    expect(error.kind).toBe('rate_limit');
    expect(error.retryable).toBe(true);
    expect(error.status).toBe(429);
    expect(error.retryAfterMs).toBe(7000);
    expect(error.message).toBe('openai/gpt-4o: rate limited (HTTP 429): Slow down, [REDACTED]');
    expect(error.providerMessage).toBe('Slow down, [REDACTED]');
  });

  it('leaves status and wait out when unknown', () => {
    const error = modelErrorFromFacts({ transport: 'connection', message: 'fetch failed' }, context);
    expect(error).toMatchObject({
      kind: 'network',
      retryable: true,
      message: 'openai/gpt-4o: network error: fetch failed',
    });
    expect(error.status).toBeUndefined();
    expect(error.retryAfterMs).toBeUndefined();
  });
});

describe('retryAfterMsFromHeaders', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');
  it.each([
    ['retry-after-ms wins', { 'retry-after-ms': '1500', 'retry-after': '9' }, 1500],
    ['seconds', { 'retry-after': '20' }, 20_000],
    ['fractional seconds', { 'retry-after': '1.5' }, 1500],
    ['HTTP date', { 'retry-after': 'Wed, 01 Jan 2025 00:00:30 GMT' }, 30_000],
    ['date in the past', { 'retry-after': 'Tue, 31 Dec 2024 23:59:00 GMT' }, 0],
    ['case-insensitive names', { 'Retry-After-Ms': '250' }, 250],
    ['unreadable', { 'retry-after': 'soon' }, undefined],
    ['absent', {}, undefined],
  ] as const)('%s', (_, headers, expected) => {
    expect(retryAfterMsFromHeaders(headers, now)).toBe(expected);
  });

  it('reads a Headers object', () => {
    expect(retryAfterMsFromHeaders(new Headers({ 'retry-after': '3' }), now)).toBe(3000);
  });
});

describe('factsFromError', () => {
  it('OpenRouter: an in-stream error with a numeric code is read as that HTTP status', () => {
    const err = new OpenAISdk.APIError(
      undefined,
      { code: 502, message: 'Provider returned error' },
      undefined,
      undefined,
    );
    const facts = factsFromError(err);
    expect(facts).toMatchObject({ status: 502, message: 'Provider returned error' });
    expect(classifyError(facts as ErrorFacts)).toBe('server');
  });

  it('a server that sends `error` as a string (LM Studio) keeps the text', () => {
    const err = OpenAISdk.APIError.generate(
      400,
      { error: 'Context length exceeded' },
      undefined,
      new Headers(),
    );
    expect(factsFromError(err)).toMatchObject({ status: 400, message: 'Context length exceeded' });
  });

  it('Anthropic: an in-stream error event', () => {
    const body = { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } };
    const err = new AnthropicSdk.APIError(undefined, body, undefined, undefined, 'overloaded_error');
    expect(factsFromError(err)).toMatchObject({ type: 'overloaded_error', message: 'Overloaded' });
  });

  it('SDK transport errors, aborts, undici socket errors, JSON errors', () => {
    expect(factsFromError(new OpenAISdk.APIConnectionTimeoutError())).toMatchObject({ transport: 'timeout' });
    expect(
      factsFromError(new AnthropicSdk.APIConnectionError({ message: 'Connection error.' })),
    ).toMatchObject({
      transport: 'connection',
    });
    expect(factsFromError(new OpenAISdk.APIUserAbortError())).toBe('aborted');
    const socket = Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' });
    expect(factsFromError(new TypeError('terminated', { cause: socket }))).toMatchObject({
      transport: 'connection',
    });
    expect(factsFromError(new SyntaxError('Unexpected token'))).toMatchObject({ transport: 'malformed' });
  });
});
