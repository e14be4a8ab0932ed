import { AgentError } from '@agent/protocol';
import { describe, expect, it } from 'vitest';
import { compileSearchPattern } from '../src/index.js';

function refusal(pattern: string, options = {}): string {
  try {
    compileSearchPattern(pattern, options);
  } catch (error) {
    expect(AgentError.is(error, 'search_pattern_unsupported')).toBe(true);
    return (error as Error).message;
  }
  throw new Error(`${pattern} was accepted`);
}

describe('compileSearchPattern', () => {
  it('answers a catastrophic pattern against a long line at once', () => {
    const pattern = compileSearchPattern('^(a+)+$');
    const started = performance.now();
    expect(pattern.test(`${'a'.repeat(100_000)}!`)).toBe(false);
    expect(pattern.search(`${'a'.repeat(100_000)}!`)).toBe(-1);
    // A backtracking engine needs seconds for 30 characters of this; loose bound for a loaded machine.
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(pattern.test('aaaa')).toBe(true);
  });

  it('matches one line, unanchored, with ^ and $ at its ends, and finds where', () => {
    const pattern = compileSearchPattern('\\d{2}-(?<word>\\w+)$');
    expect(pattern.source).toBe('\\d{2}-(?<word>\\w+)$');
    expect(pattern.test('at 12-abc')).toBe(true);
    expect(pattern.search('at 12-abc')).toBe(3);
    expect(pattern.test('12-abc!')).toBe(false);
    expect(compileSearchPattern('^error').test('an error')).toBe(false);
  });

  it('ignores case on request only', () => {
    expect(compileSearchPattern('^error').test('ERROR one')).toBe(false);
    expect(compileSearchPattern('^error', { ignoreCase: true }).test('ERROR one')).toBe(true);
    expect(compileSearchPattern('^error', { ignoreCase: true }).search('Error')).toBe(0);
  });

  it('refuses backreferences and lookaround, saying it runs on RE2 and what is allowed', () => {
    const back = refusal('(a)\\1');
    expect(back).toMatch(/^pattern "\(a\)\\\\1" uses a backreference \(\\1\), which RE2 cannot run; /);
    expect(back).toContain('search patterns run on RE2, a linear-time engine');
    expect(back).toContain('except backreferences (\\1, \\k<name>) and lookaround');
    expect(refusal('(?<n>a)\\k<n>')).toContain('uses a named backreference');
    expect(refusal('a(?=b)')).toContain('uses a lookahead (?=...)');
    expect(refusal('(?<!x)a')).toContain('uses a negative lookbehind (?<!...)');
    expect(refusal('(')).toMatch(/^pattern "\(" is not a regular expression RE2 can run \(.*missing/);
  });

  it('refuses a pattern whose program would be too large, before compiling it', () => {
    expect(refusal('((a{1,1000}){1,1000}){1,1000}')).toMatch(
      /would compile to about [\d,]+ RE2 instructions, more than the limit of 4,000/,
    );
    expect(refusal('a{1,100}', { maxCost: 50 })).toContain('more than the limit of 50');
    expect(compileSearchPattern('a{1,100}').test('aaa')).toBe(true);
  });
});

describe('SearchPattern.matches', () => {
  it('yields every non-empty match as [start, end) indices, left to right', () => {
    const digits = compileSearchPattern('\\d+');
    expect([...digits.matches('a 12 bc 345 é 6')]).toEqual([
      { start: 2, end: 4 },
      { start: 8, end: 11 },
      { start: 14, end: 15 },
    ]);
    // An empty match is skipped, and the search still moves on past it.
    expect([...compileSearchPattern('x*').matches('ab xx c')]).toEqual([{ start: 3, end: 5 }]);
    expect([...digits.matches('no digits')]).toEqual([]);
  });
});
