import type { ModelErrorKind } from '@agent/protocol';
import Anthropic from '@anthropic-ai/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { type ModelServer, type ScriptedError, startModelServer } from '../src/index.js';
import { quietLogger } from './helpers.js';

let server: ModelServer;
afterEach(async () => {
  await server.close();
});

function client(options: { timeout?: number } = {}): Anthropic {
  return new Anthropic({
    baseURL: server.url,
    apiKey: 'test',
    maxRetries: 0,
    logger: quietLogger,
    ...options,
  });
}

/** Any SDK error class (their constructors differ in the status they take). */
type ErrorClass = abstract new (...args: never[]) => Error;

const request = {
  model: 'claude-test',
  max_tokens: 100,
  messages: [{ role: 'user' as const, content: 'hi' }],
};

async function messagesError(error: ScriptedError): Promise<InstanceType<typeof Anthropic.APIError>> {
  server = await startModelServer({ steps: [{ error }] });
  const caught = await client()
    .messages.create(request)
    .catch((thrown: unknown) => thrown);
  if (!(caught instanceof Anthropic.APIError)) throw new Error(`expected an APIError, got ${String(caught)}`);
  return caught;
}

describe('Anthropic errors: status, class and body as Anthropic sends them', () => {
  const cases: [ModelErrorKind, number | undefined, ErrorClass, number, string, RegExp][] = [
    ['auth', undefined, Anthropic.AuthenticationError, 401, 'authentication_error', /^invalid x-api-key$/],
    [
      'quota',
      undefined,
      Anthropic.BadRequestError,
      400,
      'invalid_request_error',
      /credit balance is too low/,
    ],
    ['quota', 402, Anthropic.PaymentRequiredError, 402, 'billing_error', /credit balance is too low/],
    ['model_not_found', undefined, Anthropic.NotFoundError, 404, 'not_found_error', /^model: claude-test$/],
    [
      'context_length',
      undefined,
      Anthropic.BadRequestError,
      400,
      'invalid_request_error',
      /^prompt is too long: \d+ tokens > 200000 maximum$/,
    ],
    ['rate_limit', undefined, Anthropic.RateLimitError, 429, 'rate_limit_error', /rate limit/],
    ['server', undefined, Anthropic.InternalServerError, 500, 'api_error', /^Internal server error$/],
    ['server', 529, Anthropic.InternalServerError, 529, 'overloaded_error', /^Overloaded$/],
    ['timeout', undefined, Anthropic.InternalServerError, 504, 'timeout_error', /timed out/],
  ];
  it.each(cases)(
    '%s (status %s) -> %o %i',
    async (kind, status, errorClass, expectedStatus, type, message) => {
      const error = await messagesError(status === undefined ? { kind } : { kind, status });
      expect(error).toBeInstanceOf(errorClass);
      expect(error.status).toBe(expectedStatus);
      expect(error.error).toMatchObject({ type: 'error', error: { type }, request_id: 'req_testkit_1' });
      expect((error.error as { error: { message: string } }).error.message).toMatch(message);
      expect(error.requestID).toBe('req_testkit_1');
    },
  );

  it('529 overloaded is the SDK OverloadedError, an APIError with status 529', async () => {
    const error = await messagesError({ kind: 'server', status: 529 });
    expect(error).toBeInstanceOf(Anthropic.APIError);
    expect(error.constructor.name).toBe('OverloadedError');
  });

  it('rate_limit: 429 with retry-after in whole seconds (Anthropic sends no retry-after-ms)', async () => {
    const error = await messagesError({ kind: 'rate_limit', retryAfterMs: 1500 });
    expect(error.headers?.get('retry-after')).toBe('2');
    expect(error.headers?.get('retry-after-ms')).toBeNull();
    expect(error.headers?.get('anthropic-ratelimit-requests-remaining')).toBe('0');
  });
});

describe('Anthropic stream faults', () => {
  it('hang: no answer at all ends at the SDK timeout', async () => {
    server = await startModelServer({ steps: [{ fault: 'hang' }] });
    const started = performance.now();
    const caught = await client({ timeout: 300 })
      .messages.create(request)
      .catch((thrown: unknown) => thrown);
    expect(caught).toBeInstanceOf(Anthropic.APIConnectionTimeoutError);
    expect(performance.now() - started).toBeLessThan(3_000);
  });

  it('hang-after-headers while streaming: only the caller signal ends it', async () => {
    server = await startModelServer({ steps: [{ fault: 'hang-after-headers' }] });
    const started = performance.now();
    // Margins wide enough for a loaded machine: headers arrive well before the SDK timeout.
    const stream = client({ timeout: 1500 }).messages.stream(request, { signal: AbortSignal.timeout(2500) });
    const caught = await stream.finalMessage().catch((thrown: unknown) => thrown);
    expect(caught).toBeInstanceOf(Anthropic.APIUserAbortError);
    expect(performance.now() - started).toBeGreaterThanOrEqual(2400);
  });

  it('cut-stream: the SDK raises after part of the stream', async () => {
    server = await startModelServer({
      steps: [{ text: ['a', 'b', 'c', 'd', 'e', 'f'], fault: 'cut-stream' }],
    });
    const stream = client().messages.stream(request);
    const caught = await stream.finalMessage().catch((thrown: unknown) => thrown);
    expect(caught).toBeInstanceOf(Error);
    expect(caught).not.toBeInstanceOf(Anthropic.APIUserAbortError);
  });

  it('malformed-sse: an event whose data is not JSON raises a SyntaxError', async () => {
    server = await startModelServer({ steps: [{ text: 'fine', fault: 'malformed-sse' }] });
    const stream = await client().messages.create({ ...request, stream: true });
    const caught = await (async () => {
      for await (const _event of stream) {
        // drain
      }
    })().catch((thrown: unknown) => thrown);
    expect(caught).toBeInstanceOf(SyntaxError);
  });

  it('midStream overloaded: text first, then event: error', async () => {
    server = await startModelServer({
      steps: [{ text: ['par', 'tial'], error: { kind: 'server', status: 529, midStream: true } }],
    });
    const stream = client().messages.stream(request);
    let text = '';
    stream.on('text', (delta) => {
      text += delta;
    });
    const caught = await stream.finalMessage().catch((thrown: unknown) => thrown);
    expect(text).toBe('partial');
    expect(caught).toBeInstanceOf(Anthropic.APIError);
    expect(caught).toMatchObject({ type: 'overloaded_error' });
  });
});
