import { describe, expect, it } from 'vitest';
import { maxLengthGuardrail } from '../src/index.js';
import { args, configErrorOf, prompt, report, verdictOf } from './helpers.js';

describe('maxLengthGuardrail', () => {
  it('blocks text longer than max characters, counting an emoji as one', async () => {
    const guard = maxLengthGuardrail({ name: 'short', on: 'input', max: 5, unit: 'characters' });
    expect(await verdictOf(guard, prompt('hello'))).toEqual({ verdict: 'pass' });
    expect(await verdictOf(guard, prompt('héllo'))).toEqual({ verdict: 'pass' });
    expect(await verdictOf(guard, prompt('👋👋👋👋👋'))).toEqual({ verdict: 'pass' });
    expect(await verdictOf(guard, prompt('hello!'))).toEqual({
      verdict: 'block',
      reason: 'the prompt is longer than 5 characters',
    });
  });

  it('measures tool arguments as their JSON text', async () => {
    const guard = maxLengthGuardrail({ on: 'tool', max: 20 });
    expect(guard.phases).toEqual(['arguments', 'result']);
    expect((await verdictOf(guard, args('t', { q: 'short' }))).verdict).toBe('pass'); // {"q":"short"}: 13
    expect(await verdictOf(guard, args('t', { query: 'a bit longer' }))).toEqual({
      verdict: 'block',
      reason: 'the arguments of t is longer than 20 characters',
    });
  });

  it('checks the whole report, not the stream', async () => {
    const guard = maxLengthGuardrail({ on: 'output', max: 1000 });
    expect(guard.phases).toEqual(['report']);
    expect((await verdictOf(guard, report('x'.repeat(1_000_001)))).verdict).toBe('block');
  });

  it('rejects bad options with what was wrong and what is allowed', () => {
    expect(configErrorOf(() => maxLengthGuardrail({ on: 'output', max: 0 })).message).toBe(
      'guardrail "max-length": max must be a positive integer (characters), got 0',
    );
    expect(
      configErrorOf(() => maxLengthGuardrail({ on: 'output', max: 10, unit: 'tokens' as 'characters' }))
        .message,
    ).toBe('guardrail "max-length": unit must be one of characters, got "tokens"');
    expect(
      configErrorOf(() => maxLengthGuardrail({ on: 'output', max: 10, phases: ['stream'] })).message,
    ).toBe(
      'guardrail "max-length": phases must be a non-empty list of report (a piece of the stream never says how long the report is), got "stream"',
    );
  });
});
