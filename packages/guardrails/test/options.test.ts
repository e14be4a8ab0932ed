import { ConfigError } from '@agent/protocol';
import { describe, expect, it } from 'vitest';
import { maxLengthGuardrail, piiGuardrail, regexGuardrail } from '../src/index.js';
import { configErrorOf } from './helpers.js';

describe('the options every kind shares', () => {
  it('pass on to the Guardrail: name, stage, tools, phases, timeout, failOpen', () => {
    const guard = piiGuardrail({
      name: 'crm-pii',
      on: 'tool',
      tools: ['crm__*'],
      phases: ['result'],
      timeoutMs: 2_000,
      failOpen: true,
      action: 'redact',
    });
    expect(guard).toMatchObject({
      name: 'crm-pii',
      on: 'tool',
      tools: ['crm__*'],
      phases: ['result'],
      timeoutMs: 2_000,
      failOpen: true,
    });
    expect(typeof guard.check).toBe('function');
    expect(piiGuardrail({ on: 'input', action: 'block' }).name).toBe('pii');
  });

  it('are checked by guardrail() of @agent/core, which names what is allowed', () => {
    const tools = configErrorOf(() => maxLengthGuardrail({ on: 'output', max: 5, tools: ['x'] }));
    expect(tools).toBeInstanceOf(ConfigError);
    expect(tools.message).toBe(
      'guardrail "max-length": tools must be for `on: tool` only, a list of tool-name globs, got a list of 1 item',
    );
    const name = configErrorOf(() =>
      regexGuardrail({ name: 'has space', on: 'input', pattern: 'x', action: 'block' }),
    );
    expect(name.field).toBe('name');
    const timeout = configErrorOf(() => piiGuardrail({ on: 'input', action: 'block', timeoutMs: -1 }));
    expect(timeout.message).toBe(
      'guardrail "pii": timeoutMs must be a positive integer (milliseconds), got -1',
    );
  });

  it('a phase the stage does not have is refused with the phases it has', () => {
    expect(
      configErrorOf(() => piiGuardrail({ on: 'input', action: 'block', phases: ['result'] })).message,
    ).toBe('guardrail "pii": phases must be a non-empty list of prompt, got "result"');
  });

  it('options that are not an object are refused', () => {
    expect(configErrorOf(() => piiGuardrail(undefined as never)).message).toBe(
      'guardrail "pii": options must be an object, got nothing',
    );
  });
});
