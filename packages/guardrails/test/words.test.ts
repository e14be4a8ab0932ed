import { describe, expect, it } from 'vitest';
import { wordsGuardrail } from '../src/index.js';
import { args, configErrorOf, prompt, report, stream, verdictOf } from './helpers.js';

describe('wordsGuardrail', () => {
  const guard = wordsGuardrail({ name: 'banned', on: 'input', blocked: ['ass', 'wire transfer'] });

  it('matches whole words and phrases only, ignoring case by default', async () => {
    expect(await verdictOf(guard, prompt('This class has a bass player.'))).toEqual({ verdict: 'pass' });
    expect(await verdictOf(guard, prompt('Kick ASS!'))).toEqual({
      verdict: 'block',
      reason: 'the prompt contains blocked entry #1 of the list',
    });
    expect(await verdictOf(guard, prompt('Make a Wire   transfer now, you ass.'))).toEqual({
      verdict: 'block',
      reason: 'the prompt contains blocked entries #1, #2 of the list',
    });
    // The phrase's words must be consecutive.
    expect((await verdictOf(guard, prompt('wire the transfer'))).verdict).toBe('pass');
  });

  it('keeps case when caseSensitive, and reads words of any script', async () => {
    const exact = wordsGuardrail({
      on: 'output',
      blocked: ['Projekt Zürich', 'секрет'],
      caseSensitive: true,
    });
    expect((await verdictOf(exact, report('projekt zürich'))).verdict).toBe('pass');
    expect((await verdictOf(exact, report('Das Projekt Zürich startet.'))).verdict).toBe('block');
    expect((await verdictOf(exact, report('это секрет.'))).verdict).toBe('block');
    expect((await verdictOf(exact, report('это секреты.'))).verdict).toBe('pass');
  });

  it('blocks a report that lacks a required phrase, naming it; not checked while streaming', async () => {
    const disclaimer = wordsGuardrail({
      name: 'disclaimer',
      on: 'output',
      required: ['not financial advice'],
    });
    expect(disclaimer.phases).toEqual(['report']);
    expect(await verdictOf(disclaimer, report('Buy low. This is not financial advice.'))).toEqual({
      verdict: 'pass',
    });
    expect(await verdictOf(disclaimer, report('Buy low, sell high.'))).toEqual({
      verdict: 'block',
      reason: 'the report lacks required "not financial advice"',
    });
  });

  it('blocks while streaming when only blocked words are given', async () => {
    const streaming = wordsGuardrail({ on: 'output', blocked: ['confidential'] });
    expect(streaming.phases).toEqual(['stream', 'report']);
    expect((await verdictOf(streaming, stream('this is CONFIDENTIAL data'))).verdict).toBe('block');
  });

  it('denies a tool call whose argument values hold a blocked word', async () => {
    const tools = wordsGuardrail({ on: 'tool', blocked: ['production'], action: 'deny' });
    expect(await verdictOf(tools, args('db__drop', { target: { env: 'production' } }))).toEqual({
      verdict: 'deny',
      reason: 'the arguments of db__drop contains blocked entry #1 of the list',
    });
  });

  it('stays linear on 1 MB of text with a long list (one table look-up per word)', async () => {
    const many = wordsGuardrail({
      on: 'output',
      blocked: Array.from({ length: 5_000 }, (_, i) => `forbidden${i}`),
    });
    const text = 'plain words in a long report '.repeat(36_000);
    const started = performance.now();
    expect((await verdictOf(many, report(text))).verdict).toBe('pass');
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it('rejects bad options with what was wrong and what is allowed', () => {
    expect(configErrorOf(() => wordsGuardrail({ on: 'input' })).message).toBe(
      'guardrail "words": blocked must be at least one word in `blocked` or `required`, got nothing',
    );
    expect(configErrorOf(() => wordsGuardrail({ on: 'input', blocked: ['ok', '  ...  '] })).message).toBe(
      'guardrail "words": blocked[1] must be a word or phrase of at most 200 characters with at least one letter or digit, got "  ...  "',
    );
    expect(
      configErrorOf(() =>
        wordsGuardrail({ on: 'input', blocked: ['x'], caseSensitive: 'yes' as unknown as boolean }),
      ).message,
    ).toBe('guardrail "words": caseSensitive must be true or false, got "yes"');
    expect(
      configErrorOf(() => wordsGuardrail({ on: 'output', required: ['x'], phases: ['stream'] })).field,
    ).toBe('phases');
  });
});
