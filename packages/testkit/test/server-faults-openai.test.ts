import type { ModelErrorKind } from '@agent/protocol';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { type ModelServer, type ScriptedError, startModelServer } from '../src/index.js';
import { quietLogger } from './helpers.js';

let server: ModelServer;
afterEach(async () => {
  await server.close();
});

function client(options: { timeout?: number } = {}): OpenAI {
  return new OpenAI({
    baseURL: `${server.url}/v1`,
    apiKey: 'test',
    maxRetries: 0,
    logger: quietLogger,
    ...options,
  });
}

/** Any SDK error class (their constructors differ in the status they take). */
type ErrorClass = abstract new (...args: never[]) => Error;

const request = { model: 'gpt-test', messages: [{ role: 'user' as const, content: 'hi' }] };

async function chatError(error: ScriptedError): Promise<InstanceType<typeof OpenAI.APIError>> {
  server = await startModelServer({ steps: [{ error }] });
  const caught = await client()
    .chat.completions.create(request)
    .catch((thrown: unknown) => thrown);
  if (!(caught instanceof OpenAI.APIError)) throw new Error(`expected an APIError, got ${String(caught)}`);
  return caught;
}

describe('OpenAI errors: status, class and body as OpenAI sends them', () => {
  const cases: [ModelErrorKind, number | undefined, ErrorClass, number, string | null, string | null][] = [
    ['auth', undefined, OpenAI.AuthenticationError, 401, 'invalid_request_error', 'invalid_api_key'],
    ['quota', undefined, OpenAI.RateLimitError, 429, 'insufficient_quota', 'insufficient_quota'],
    ['model_not_found', undefined, OpenAI.NotFoundError, 404, 'invalid_request_error', 'model_not_found'],
    [
      'context_length',
      undefined,
      OpenAI.BadRequestError,
      400,
      'invalid_request_error',
      'context_length_exceeded',
    ],
    ['bad_request', undefined, OpenAI.BadRequestError, 400, 'invalid_request_error', null],
    ['content_filter', undefined, OpenAI.BadRequestError, 400, 'invalid_request_error', 'content_filter'],
    ['server', undefined, OpenAI.InternalServerError, 500, 'server_error', null],
    ['server', 503, OpenAI.InternalServerError, 503, 'server_error', null],
    ['timeout', undefined, OpenAI.InternalServerError, 504, 'timeout', null],
  ];
  it.each(cases)('%s (status %s) -> %o %i', async (kind, status, errorClass, expectedStatus, type, code) => {
    const error = await chatError(status === undefined ? { kind } : { kind, status });
    expect(error).toBeInstanceOf(errorClass);
    expect(error.status).toBe(expectedStatus);
    expect(error.type).toBe(type);
    expect(error.code).toBe(code);
    expect(error.requestID).toBe('req_testkit_1');
  });

  it('rate_limit: 429 with retry-after and retry-after-ms readable from the headers', async () => {
    const error = await chatError({ kind: 'rate_limit', retryAfterMs: 1500 });
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    expect(error.code).toBe('rate_limit_exceeded');
    expect(error.headers?.get('retry-after')).toBe('2');
    expect(error.headers?.get('retry-after-ms')).toBe('1500');
    expect(error.headers?.get('x-ratelimit-remaining-requests')).toBe('0');
    expect(error.message).toMatch(/^429 Rate limit reached for gpt-test/);
  });

  it('context_length says how long the prompt was; a scripted message replaces the default', async () => {
    const error = await chatError({ kind: 'context_length' });
    expect(error.message).toMatch(
      /maximum context length is 128000 tokens\. However, your messages resulted in \d+ tokens/,
    );
    expect(error.param).toBe('messages');
    await server.close();
    expect((await chatError({ kind: 'auth', message: 'key revoked' })).message).toBe('401 key revoked');
  });

  it('network: the connection closes without an answer', async () => {
    server = await startModelServer({ steps: [{ error: { kind: 'network' } }] });
    const caught = await client()
      .chat.completions.create(request)
      .catch((thrown: unknown) => thrown);
    expect(caught).toBeInstanceOf(OpenAI.APIConnectionError);
  });

  it('invalid_response: a 200 whose body is not JSON', async () => {
    server = await startModelServer({ steps: [{ error: { kind: 'invalid_response' } }] });
    const caught = await client()
      .chat.completions.create(request)
      .catch((thrown: unknown) => thrown);
    expect(caught).toBeInstanceOf(SyntaxError);
  });

  it('the Responses route sends the same error shapes', async () => {
    server = await startModelServer({ steps: [{ error: { kind: 'quota' } }] });
    const caught = await client()
      .responses.create({ model: 'm', input: 'x' })
      .catch((thrown: unknown) => thrown);
    expect(caught).toBeInstanceOf(OpenAI.RateLimitError);
    expect(caught).toMatchObject({ status: 429, code: 'insufficient_quota' });
  });
});

describe('OpenAI stream faults', () => {
  it('hang: no answer at all ends at the SDK timeout', async () => {
    server = await startModelServer({ steps: [{ fault: 'hang' }] });
    const started = performance.now();
    const caught = await client({ timeout: 300 })
      .chat.completions.create(request)
      .catch((thrown: unknown) => thrown);
    expect(caught).toBeInstanceOf(OpenAI.APIConnectionTimeoutError);
    expect(performance.now() - started).toBeLessThan(3_000);
  });

  it('hang-after-headers: the SDK timeout stops at headers, so only the caller signal ends it', async () => {
    server = await startModelServer({ steps: [{ fault: 'hang-after-headers' }] });
    const started = performance.now();
    // Margins wide enough for a loaded machine: headers arrive well before the SDK timeout.
    const caught = await client({ timeout: 1500 })
      .chat.completions.create(request, { signal: AbortSignal.timeout(2500) })
      .catch((thrown: unknown) => thrown);
    // The body read is not wrapped by the SDK: the caller sees the fetch AbortError itself.
    expect((caught as Error).name).toMatch(/^(AbortError|TimeoutError)$/);
    expect(performance.now() - started).toBeGreaterThanOrEqual(2400);
  });

  it('hang-after-headers while streaming: iteration stalls until the signal fires', async () => {
    server = await startModelServer({ steps: [{ fault: 'hang-after-headers' }] });
    const stream = await client({ timeout: 200 }).chat.completions.create(
      { ...request, stream: true },
      { signal: AbortSignal.timeout(300) },
    );
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks).toEqual([]);
  });

  it('cut-stream: part of the stream, then the socket is destroyed and the SDK raises', async () => {
    server = await startModelServer({
      steps: [{ text: ['a', 'b', 'c', 'd', 'e', 'f'], fault: 'cut-stream' }],
    });
    const stream = await client().chat.completions.create({ ...request, stream: true });
    let text = '';
    const caught = await (async () => {
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    })().catch((thrown: unknown) => thrown);
    expect(caught).toBeInstanceOf(Error);
    expect(caught).not.toBeInstanceOf(OpenAI.APIUserAbortError);
    expect(text.length).toBeGreaterThan(0);
    expect(text.length).toBeLessThan(6);
  });

  it('malformed-sse: an event whose data is not JSON raises a SyntaxError', async () => {
    server = await startModelServer({ steps: [{ text: 'fine', fault: 'malformed-sse' }] });
    const stream = await client().chat.completions.create({ ...request, stream: true });
    const caught = await (async () => {
      for await (const _chunk of stream) {
        // drain
      }
    })().catch((thrown: unknown) => thrown);
    expect(caught).toBeInstanceOf(SyntaxError);
  });

  it('midStream error: text first, then the in-stream error object', async () => {
    server = await startModelServer({
      steps: [{ text: ['par', 'tial'], error: { kind: 'server', midStream: true } }],
    });
    const stream = await client().chat.completions.create({ ...request, stream: true });
    let text = '';
    const caught = await (async () => {
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    })().catch((thrown: unknown) => thrown);
    expect(text).toBe('partial');
    expect(caught).toBeInstanceOf(OpenAI.APIError);
    expect((caught as Error).message).toMatch(/The server had an error/);
  });

  it('midStream error on the Responses route: error event then response.failed', async () => {
    server = await startModelServer({ steps: [{ text: 'x', error: { kind: 'quota', midStream: true } }] });
    const stream = await client().responses.create({ model: 'm', input: 'x', stream: true });
    const caught = await (async () => {
      for await (const _event of stream) {
        // drain
      }
    })().catch((thrown: unknown) => thrown);
    expect(caught).toBeInstanceOf(OpenAI.APIError);
    expect(caught).toMatchObject({ code: 'insufficient_quota' });
  });

  it('tokenDelayMs paces each delta', async () => {
    server = await startModelServer({ steps: [{ text: ['a', 'b', 'c', 'd', 'e'], tokenDelayMs: 40 }] });
    const started = performance.now();
    const stream = await client().chat.completions.create({ ...request, stream: true });
    const arrivals: number[] = [];
    for await (const chunk of stream) if (chunk.choices[0]?.delta.content) arrivals.push(performance.now());
    expect(arrivals).toHaveLength(5);
    // Measured from the request, not between arrivals: a loaded client may read the first
    // deltas late and together, but the last one cannot come before the four gaps have passed.
    expect((arrivals.at(-1) ?? 0) - started).toBeGreaterThanOrEqual(4 * 40);
  });
});
