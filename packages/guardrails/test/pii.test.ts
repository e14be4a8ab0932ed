import { ConfigError } from '@agent/protocol';
import { describe, expect, it } from 'vitest';
import { piiGuardrail } from '../src/index.js';
import { ibanValid, luhnValid } from '../src/pii/checksums.js';
import { args, configErrorOf, jsonReport, prompt, report, result, stream, verdictOf } from './helpers.js';

const redact = piiGuardrail({ on: 'output', action: 'redact' });

async function redacted(text: string, detect?: Parameters<typeof piiGuardrail>[0]['detect']) {
  const guard = detect === undefined ? redact : piiGuardrail({ on: 'output', action: 'redact', detect });
  const verdict = await verdictOf(guard, report(text));
  return verdict.verdict === 'rewrite' ? verdict.value : verdict.verdict;
}

describe('checksums', () => {
  it('Luhn accepts real test card numbers and rejects one digit off', () => {
    expect(luhnValid('4111111111111111')).toBe(true);
    expect(luhnValid('5555555555554444')).toBe(true);
    expect(luhnValid('378282246310005')).toBe(true);
    expect(luhnValid('4111111111111112')).toBe(false);
  });

  it('mod-97 accepts published example IBANs and rejects a changed digit', () => {
    expect(ibanValid('DE89370400440532013000')).toBe(true);
    expect(ibanValid('GB82WEST12345698765432')).toBe(true);
    expect(ibanValid('FR1420041010050500013M02606')).toBe(true);
    expect(ibanValid('DE89370400440532013001')).toBe(false);
  });
});

describe('piiGuardrail', () => {
  it('redacts e-mail addresses in prose, and leaves prose without them alone', async () => {
    expect(await redacted('Write to jane.doe+news@mail.example.co.uk, or to bob@example.org.')).toBe(
      'Write to [REDACTED:email], or to [REDACTED:email].',
    );
    expect(await redacted('Meet me @ 5, at the cafe. Email is down.')).toBe('pass');
  });

  it('redacts only card numbers that pass the Luhn check, with or without separators', async () => {
    expect(await redacted('Card 4111 1111 1111 1111 expires 12/29.')).toBe(
      'Card [REDACTED:card] expires 12/29.',
    );
    expect(await redacted('Card 5555-5555-5555-4444.')).toBe('Card [REDACTED:card].');
    expect(await redacted('Amex 378282246310005 on file')).toBe('Amex [REDACTED:card] on file');
    // One digit off: not a card number, so nothing is touched.
    expect(await redacted('Card 4111 1111 1111 1112 expires', ['card'])).toBe('pass');
    // A card right after another number is still found.
    expect(await redacted('Order 3 4111 1111 1111 1111', ['card'])).toBe('Order 3 [REDACTED:card]');
  });

  it('redacts IBANs that pass mod-97, printed or compact, and not those that fail', async () => {
    expect(await redacted('Pay to DE89 3704 0044 0532 0130 00 AND send a note')).toBe(
      'Pay to [REDACTED:iban] AND send a note',
    );
    expect(await redacted('IBAN: GB82WEST12345698765432.')).toBe('IBAN: [REDACTED:iban].');
    expect(await redacted('IBAN: DE89 3704 0044 0532 0130 01', ['iban'])).toBe('pass');
  });

  it('redacts phone numbers in international and national formats, never plain numbers', async () => {
    expect(await redacted('Call +1 415 555 2671 or (415) 555-2671 or 415-555-2671.', ['phone'])).toBe(
      'Call [REDACTED:phone] or [REDACTED:phone] or [REDACTED:phone].',
    );
    expect(await redacted('Berlin office: 030 1234567, London: +44 20 7946 0958', ['phone'])).toBe(
      'Berlin office: [REDACTED:phone], London: [REDACTED:phone]',
    );
    for (const plain of [
      'Invoice 20240115 totals 1234567 units',
      'On 2024-01-15 we shipped 12 000 items',
      'Version 1.2.3, build 4455667',
    ])
      expect(await redacted(plain, ['phone'])).toBe('pass');
  });

  it('redacts API-key shapes of the common providers, and keeps `Bearer` readable', async () => {
    const keys = {
      openai: `sk-proj-${'A1b2C3d4'.repeat(4)}`,
      anthropic: `sk-ant-api03-${'x9Y8z7W6'.repeat(4)}`,
      aws: 'AKIAIOSFODNN7EXAMPLE',
      github: `ghp_${'a1B2c3D4e5'.repeat(4)}`,
      githubPat: `github_pat_11ABCDEFG0${'a1B2c3D4e5'.repeat(3)}`,
      slack: 'xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOp',
      stripe: `sk_live_${'4eC39HqLyjWDarjtT1zdp7dc'}`,
      google: 'AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6q', // AIza and 35 more
      jwt: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
    };
    for (const [provider, key] of Object.entries(keys)) {
      expect({ provider, out: await redacted(`key=${key} done`, ['api_key']) }).toEqual({
        provider,
        out: 'key=[REDACTED:api_key] done',
      });
    }
    expect(await redacted('Authorization: Bearer abcdefABCDEF0123456789.token\nnext', ['api_key'])).toBe(
      'Authorization: Bearer [REDACTED:api_key]\nnext',
    );
    // Words that merely start like a key prefix are not keys.
    expect(
      await redacted('the risk-assessment-for-everyone-here and a task-management-flow', ['api_key']),
    ).toBe('pass');
  });

  it('blocks with a reason that counts kinds and never shows a value', async () => {
    const guard = piiGuardrail({ name: 'no-pii', on: 'input', action: 'block' });
    const verdict = await verdictOf(
      guard,
      prompt('I am ann@example.com, card 4111111111111111, ann@example.net'),
    );
    expect(verdict).toEqual({ verdict: 'block', reason: 'found 2 email, 1 card in the prompt' });
    expect(await verdictOf(guard, prompt('Hello, how are you?'))).toEqual({ verdict: 'pass' });
  });

  it('redacts inside tool arguments: every string and number value, nested, keys untouched', async () => {
    const guard = piiGuardrail({ on: 'tool', action: 'redact', detect: ['email', 'card'] });
    const verdict = await verdictOf(
      guard,
      args('crm__update', {
        contact: { email: 'ann@example.com', notes: ['call later', 'cc bob@example.org please'] },
        card: 4111111111111111,
        amount: 12,
      }),
    );
    expect(verdict).toEqual({
      verdict: 'rewrite',
      reason: 'redacted found 2 email, 1 card in the arguments of crm__update',
      value: {
        contact: { email: '[REDACTED:email]', notes: ['call later', 'cc [REDACTED:email] please'] },
        card: '[REDACTED:card]',
        amount: 12,
      },
    });
  });

  it('redacts a tool result before the model sees it, and a JSON report by value', async () => {
    const guard = piiGuardrail({ on: 'tool', action: 'redact', phases: ['result'] });
    expect(await verdictOf(guard, result('crm__get', '{"email":"ann@example.com"}'))).toMatchObject({
      verdict: 'rewrite',
      value: '{"email":"[REDACTED:email]"}',
    });
    const out = await verdictOf(redact, jsonReport({ summary: 'Reach ann@example.com', n: 1 }));
    expect(out).toMatchObject({ verdict: 'rewrite', value: { summary: 'Reach [REDACTED:email]', n: 1 } });
  });

  it('answers `rewrite` at the stream phase (the core holds the stream for the report check)', async () => {
    expect(await verdictOf(redact, stream('so mail ann@example.com'))).toMatchObject({
      verdict: 'rewrite',
      value: 'so mail [REDACTED:email]',
    });
  });

  it('blocks arguments nested too deep to check rather than passing them unread', async () => {
    let deep: Record<string, unknown> = { email: 'ann@example.com' };
    for (let i = 0; i < 100; i++) deep = { inner: deep };
    const verdict = await verdictOf(piiGuardrail({ on: 'tool', action: 'redact' }), args('t', deep));
    expect(verdict).toEqual({
      verdict: 'block',
      reason: 'the arguments of t is nested deeper than 64 levels, so it cannot be checked',
    });
  });

  it('rejects bad options with what was wrong and what is allowed', () => {
    const kind = configErrorOf(() =>
      piiGuardrail({ on: 'output', action: 'redact', detect: ['email', 'ssn' as 'email'] }),
    );
    expect(kind).toBeInstanceOf(ConfigError);
    expect(kind.message).toBe(
      'guardrail "pii": detect must be a non-empty list of email, phone, card, iban, api_key, got "ssn"',
    );
    const action = configErrorOf(() => piiGuardrail({ on: 'output', action: 'mask' as 'redact' }));
    expect(action.message).toBe('guardrail "pii": action must be one of redact, block, got "mask"');
    const stage = configErrorOf(() => piiGuardrail({ on: 'everywhere' as 'input', action: 'block' }));
    expect(stage.message).toBe('guardrail "pii": on must be input, output, tool, got "everywhere"');
  });
});
