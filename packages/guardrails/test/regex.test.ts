import { ConfigError } from '@agent/protocol';
import { describe, expect, it } from 'vitest';
import { regexGuardrail } from '../src/index.js';
import { args, configErrorOf, jsonReport, prompt, report, result, stream, verdictOf } from './helpers.js';

describe('regexGuardrail', () => {
  it('blocks a matching prompt and passes one that does not, naming the rule, not the text', async () => {
    const guard = regexGuardrail({
      name: 'no-ssn',
      on: 'input',
      pattern: '\\b\\d{3}-\\d{2}-\\d{4}\\b',
      action: 'block',
    });
    expect(await verdictOf(guard, prompt('My SSN is 123-45-6789, help me file taxes'))).toEqual({
      verdict: 'block',
      reason: '1 match of pattern no-ssn in the prompt',
    });
    expect(await verdictOf(guard, prompt('Call 123-456-7890 about order 12-34'))).toEqual({
      verdict: 'pass',
    });
  });

  it('redacts every match with the guardrail name, in text and in tool arguments', async () => {
    const guard = regexGuardrail({
      name: 'ticket',
      on: 'output',
      pattern: 'TICKET-[0-9]+',
      action: 'redact',
    });
    expect(await verdictOf(guard, report('See TICKET-12 and TICKET-345.'))).toEqual({
      verdict: 'rewrite',
      value: 'See [REDACTED:ticket] and [REDACTED:ticket].',
      reason: 'redacted 2 matches of pattern ticket in the report',
    });
    expect(await verdictOf(guard, jsonReport({ refs: ['TICKET-1', 'none'] }))).toMatchObject({
      value: { refs: ['[REDACTED:ticket]', 'none'] },
    });
    const onTools = regexGuardrail({
      name: 'ticket',
      on: 'tool',
      pattern: 'TICKET-[0-9]+',
      action: 'redact',
    });
    expect(await verdictOf(onTools, args('jira__get', { id: 'TICKET-9', n: 3 }))).toMatchObject({
      verdict: 'rewrite',
      value: { id: '[REDACTED:ticket]', n: 3 },
    });
    expect(await verdictOf(onTools, result('jira__get', 'linked TICKET-10'))).toMatchObject({
      value: 'linked [REDACTED:ticket]',
    });
  });

  it('ignores case only with flag i', async () => {
    const exact = regexGuardrail({ name: 'x', on: 'input', pattern: 'drop table', action: 'block' });
    const folded = regexGuardrail({
      name: 'x',
      on: 'input',
      pattern: 'drop table',
      flags: 'i',
      action: 'block',
    });
    expect((await verdictOf(exact, prompt('DROP TABLE users'))).verdict).toBe('pass');
    expect((await verdictOf(folded, prompt('DROP TABLE users'))).verdict).toBe('block');
  });

  it('`deny` stops a tool call and lets the run go on; only for tools, at the arguments phase', async () => {
    const guard = regexGuardrail({ name: 'no-rm', on: 'tool', pattern: 'rm -rf', action: 'deny' });
    expect(await verdictOf(guard, args('shell__run', { command: 'rm -rf /' }))).toEqual({
      verdict: 'deny',
      reason: '1 match of pattern no-rm in the arguments of shell__run',
    });
    expect(guard.phases).toEqual(['arguments']);
    expect(
      configErrorOf(() => regexGuardrail({ name: 'no-rm', on: 'output', pattern: 'x', action: 'deny' }))
        .message,
    ).toBe('guardrail "no-rm": action must be `deny` only with `on: tool`, got "deny"');
  });

  it('`require` blocks a report that does not match, and is not allowed at the stream phase', async () => {
    const guard = regexGuardrail({
      name: 'cites',
      on: 'output',
      pattern: '\\[source: [^\\]]+\\]',
      action: 'require',
    });
    expect(guard.phases).toEqual(['report']);
    expect(await verdictOf(guard, report('The answer is 4 [source: arithmetic].'))).toEqual({
      verdict: 'pass',
    });
    expect(await verdictOf(guard, report('The answer is 4.'))).toEqual({
      verdict: 'block',
      reason: 'the report does not match the required pattern of cites',
    });
    const error = configErrorOf(() =>
      regexGuardrail({ name: 'cites', on: 'output', pattern: 'x', action: 'require', phases: ['stream'] }),
    );
    expect(error.message).toBe(
      'guardrail "cites": phases must be a non-empty list of report (`require` needs the whole text, which `stream` never holds), got "stream"',
    );
  });

  it('a redact at the stream phase answers rewrite', async () => {
    const guard = regexGuardrail({ name: 'codes', on: 'output', pattern: 'code [0-9]{4}', action: 'redact' });
    expect(await verdictOf(guard, stream('your code 1234 is'))).toMatchObject({ verdict: 'rewrite' });
  });

  it('refuses patterns RE2 cannot run, too large, or matching empty text, saying what is allowed', () => {
    const backref = configErrorOf(() =>
      regexGuardrail({ name: 'r', on: 'input', pattern: '(a)\\1', action: 'block' }),
    );
    expect(backref).toBeInstanceOf(ConfigError);
    expect(backref.field).toBe('pattern');
    expect(backref.message).toContain('uses a backreference (\\1), which RE2 cannot run');
    expect(backref.message).toContain('except backreferences');
    const lookahead = configErrorOf(() =>
      regexGuardrail({ name: 'r', on: 'input', pattern: 'a(?=b)', action: 'block' }),
    );
    expect(lookahead.message).toContain('a lookahead');
    const huge = configErrorOf(() =>
      regexGuardrail({ name: 'r', on: 'input', pattern: '((a{1000}){1000}){1000}', action: 'block' }),
    );
    expect(huge.message).toContain('more than the limit');
    const empty = configErrorOf(() =>
      regexGuardrail({ name: 'r', on: 'input', pattern: 'a*', action: 'block' }),
    );
    expect(empty.message).toContain('matches the empty text');
    const flags = configErrorOf(() =>
      regexGuardrail({ name: 'r', on: 'input', pattern: 'a', flags: 'gm', action: 'block' }),
    );
    expect(flags.message).toBe('guardrail "r": flags must be `i` (ignore case) or nothing, got "gm"');
    const action = configErrorOf(() =>
      regexGuardrail({ name: 'r', on: 'input', pattern: 'a', action: 'warn' as 'block' }),
    );
    expect(action.message).toBe(
      'guardrail "r": action must be one of block, redact, deny, require, got "warn"',
    );
  });

  it('a hostile pattern on a 1 MB text answers at once: RE2 never backtracks', async () => {
    const guard = regexGuardrail({ name: 'hostile', on: 'output', pattern: '^(a+)+$', action: 'block' });
    // A backtracking engine takes exponential time on this (`a` repeated, then a mismatch).
    const text = `${'a'.repeat(1 << 20)}!`;
    const started = performance.now();
    expect(await verdictOf(guard, report(text))).toEqual({ verdict: 'pass' });
    // Generous: the machine is shared; a backtracking engine would not finish at all.
    expect(performance.now() - started).toBeLessThan(10_000);
    expect((await verdictOf(guard, report('aaaa'))).verdict).toBe('block');
  });

  it('scans 1 MB in at most a few times what 256 KB takes (linear, not quadratic)', async () => {
    const guard = regexGuardrail({
      name: 'digits',
      on: 'output',
      pattern: '[a-z]+@x|[0-9]{5}',
      action: 'redact',
    });
    const unit = 'word 12345 another@y words and more ';
    const timeFor = async (bytes: number) => {
      const text = unit.repeat(Math.ceil(bytes / unit.length));
      await verdictOf(guard, report(text)); // warm
      const times: number[] = [];
      for (let i = 0; i < 3; i++) {
        const started = performance.now();
        const verdict = await verdictOf(guard, report(text));
        times.push(performance.now() - started);
        expect(verdict.verdict).toBe('rewrite');
      }
      return Math.min(...times);
    };
    const small = await timeFor(256 * 1024);
    const large = await timeFor(1024 * 1024);
    // Linear is 4x; quadratic would be 16x. Loose bound: timing belongs to the benches.
    expect(large / small).toBeLessThan(10);
  }, 120_000);
});

describe('a redacting pattern that rescans the text for every match', () => {
  it('stops at its timeout with an error naming the guardrail (the session counts it as a failure)', async () => {
    // `a*b|a` over `aaaa...`: each one-letter match first tries `a*b` to the end of the text.
    const guard = regexGuardrail({
      name: 'slow',
      on: 'output',
      pattern: 'a*b|a',
      action: 'redact',
      timeoutMs: 300,
    });
    const started = performance.now();
    await expect(verdictOf(guard, report('a'.repeat(200_000)))).rejects.toThrow(
      /^guardrail slow ran past its 300 ms while scanning \(\d+ matches so far\)/,
    );
    // One more match past the deadline at most; generous for a shared machine.
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('stops when the session cancels the check', async () => {
    const guard = regexGuardrail({ name: 'slow', on: 'output', pattern: 'a*b|a', action: 'redact' });
    const controller = new AbortController();
    controller.abort();
    const run = async () =>
      guard.check(report('a'.repeat(5_000)), {
        signal: controller.signal,
        sessionId: 's',
        agentPath: 'a.ai',
        turn: 1,
      });
    await expect(run()).rejects.toThrow('guardrail slow was cancelled while scanning');
  });
});
