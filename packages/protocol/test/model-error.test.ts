import { describe, expect, test } from 'vitest';
import { isModelError, isRetryableKind, MODEL_ERROR_KINDS, ModelError } from '../src/index.js';

describe('ModelError', () => {
  test('retryable follows the kind unless the error says otherwise', () => {
    expect(new ModelError({ kind: 'rate_limit', message: 'slow down' }).retryable).toBe(true);
    expect(new ModelError({ kind: 'server', message: '500' }).retryable).toBe(true);
    expect(new ModelError({ kind: 'auth', message: 'bad key' }).retryable).toBe(false);
    expect(new ModelError({ kind: 'quota', message: 'no credit' }).retryable).toBe(false);
    expect(new ModelError({ kind: 'server', message: '501', retryable: false }).retryable).toBe(false);
  });

  test('carries status, retry-after, provider message and cause', () => {
    const cause = new Error('socket hang up');
    const error = new ModelError({
      kind: 'rate_limit',
      message: 'rate limited by openai',
      status: 429,
      retryAfterMs: 1500,
      providerMessage: 'Rate limit reached for gpt-4o',
      provider: 'openai',
      model: 'gpt-4o',
      cause,
    });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('ModelError');
    expect(error.message).toBe('rate limited by openai');
    expect(error.status).toBe(429);
    expect(error.retryAfterMs).toBe(1500);
    expect(error.providerMessage).toBe('Rate limit reached for gpt-4o');
    expect(error.cause).toBe(cause);
  });

  test('isModelError recognises instances and look-alikes from another copy, not other errors', () => {
    expect(isModelError(new ModelError({ kind: 'timeout', message: 't' }))).toBe(true);
    expect(
      isModelError({ [Symbol.for('@agent/error')]: true, code: 'model_call_failed', kind: 'network' }),
    ).toBe(true);
    expect(
      isModelError({ [Symbol.for('@agent/error')]: true, code: 'model_call_failed', kind: 'made_up' }),
    ).toBe(false);
    expect(isModelError({ name: 'ModelError', kind: 'network' })).toBe(false);
    expect(isModelError(new Error('plain'))).toBe(false);
    expect(isModelError(null)).toBe(false);
  });

  test('every kind has a default retry decision', () => {
    for (const kind of MODEL_ERROR_KINDS) expect(typeof isRetryableKind(kind)).toBe('boolean');
    expect(MODEL_ERROR_KINDS.filter(isRetryableKind).sort()).toEqual(
      ['invalid_response', 'network', 'rate_limit', 'server', 'timeout'].sort(),
    );
  });
});
