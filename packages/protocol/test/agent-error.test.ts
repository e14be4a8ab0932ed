import { describe, expect, test } from 'vitest';
import { AGENT_ERROR_BRAND, AgentError, ConfigError, isModelError, ModelError } from '../src/index.js';

describe('AgentError', () => {
  test('carries a code and is recognised by AgentError.is, with or without a code', () => {
    const error = new AgentError('queue_aborted', 'the call was cancelled while waiting');
    expect(error).toBeInstanceOf(Error);
    expect(error.code).toBe('queue_aborted');
    expect(AgentError.is(error)).toBe(true);
    expect(AgentError.is(error, 'queue_aborted')).toBe(true);
    expect(AgentError.is(error, 'configuration')).toBe(false);
    expect(AgentError.is(new Error('plain'))).toBe(false);
    expect(AgentError.is({ code: 'queue_aborted' })).toBe(false);
    expect(AgentError.is(undefined)).toBe(false);
  });

  test('recognises an error from another copy of the package', async () => {
    // A second instance of the module, as a second bundle or version would load it.
    // @ts-expect-error: the query string makes a second module instance; tsc cannot resolve it.
    const copy = (await import('../src/agent-error.js?copy')) as typeof import('../src/agent-error.js');
    expect(copy.AgentError).not.toBe(AgentError);
    const foreign = new copy.AgentError('parser_ended', 'from the other copy');
    expect(foreign).not.toBeInstanceOf(AgentError);
    expect(AgentError.is(foreign, 'parser_ended')).toBe(true);
    expect(copy.AgentError.is(new AgentError('x', 'y'))).toBe(true);
  });

  test('the brand is the registered symbol, so packages that import nothing can set it', () => {
    expect(AGENT_ERROR_BRAND).toBe(Symbol.for('@agent/error'));
    class Standalone extends Error {
      readonly code = 'invalid_nonce';
    }
    Object.defineProperty(Standalone.prototype, Symbol.for('@agent/error'), { value: true });
    expect(AgentError.is(new Standalone('bad nonce'), 'invalid_nonce')).toBe(true);
  });

  test('the brand stays out of spreads and JSON', () => {
    const error = new AgentError('x', 'message');
    expect(Object.getOwnPropertySymbols({ ...error })).toEqual([]);
    expect(JSON.stringify(error)).not.toContain('agent/error');
  });

  test('ModelError is an AgentError with code model_call_failed', () => {
    const error = new ModelError({ kind: 'timeout', message: 'too slow' });
    expect(AgentError.is(error, 'model_call_failed')).toBe(true);
    expect(error.name).toBe('ModelError');
    expect(isModelError(new AgentError('model_call_failed', 'no kind'))).toBe(false);
  });
});

describe('ConfigError', () => {
  test('names the field, the value and what is allowed', () => {
    const error = new ConfigError({
      source: 'createModelClient',
      field: 'timeoutMs',
      value: -5,
      allowed: 'a positive number of milliseconds',
    });
    expect(error.message).toBe(
      'createModelClient: timeoutMs must be a positive number of milliseconds, got -5',
    );
    expect(error).toMatchObject({
      code: 'configuration',
      field: 'timeoutMs',
      value: -5,
      name: 'ConfigError',
    });
    expect(error.allowed).toBe('a positive number of milliseconds');
    expect(AgentError.is(error, 'configuration')).toBe(true);
    expect(error.problems).toEqual([error]);
  });

  test('a secret value never reaches the error', () => {
    const secret = 'sk-live-1234567890abcdef';
    const error = new ConfigError({ field: 'apiKey', value: secret, allowed: 'a key', secret: true });
    expect(error.value).toBe('[redacted]');
    expect(error.message).toBe('apiKey must be a key, got "[redacted]"');
    expect(JSON.stringify({ ...error, message: error.message })).not.toContain(secret);
  });

  test('values are shown short: long strings cut, objects by kind, missing as nothing', () => {
    const long = new ConfigError({ field: 'model', value: 'm'.repeat(500), allowed: 'a model name' });
    expect(long.message.length).toBeLessThan(120);
    expect(new ConfigError({ field: 'env', value: { A: 'x' }, allowed: 'strings' }).message).toBe(
      'env must be strings, got an object',
    );
    expect(new ConfigError({ field: 'url', allowed: 'an http(s) URL' }).message).toBe(
      'url must be an http(s) URL, got nothing',
    );
  });

  test('of() keeps every problem and names each in the message', () => {
    const a = new ConfigError({ field: 'maxTurns', value: 0, allowed: 'a positive integer' });
    const b = new ConfigError({ field: 'topP', value: 3, allowed: 'a number above 0 and at most 1' });
    const both = ConfigError.of([a, b], 'invalid session configuration');
    expect(both.message).toBe(
      'invalid session configuration: maxTurns must be a positive integer, got 0; topP must be a number above 0 and at most 1, got 3',
    );
    expect(both.field).toBe('maxTurns');
    expect(both.problems).toEqual([a, b]);
    expect(ConfigError.of([a])).toBe(a);
    expect(() => ConfigError.of([])).toThrow(RangeError);
  });
});
