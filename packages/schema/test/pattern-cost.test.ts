import { createRequire } from 'node:module';
import type { RE2JS } from 're2js';
import { expect, it } from 'vitest';
import { patternCost } from '../src/index.js';

const { RE2JS: RE2 } = createRequire(import.meta.url)('re2js') as { RE2JS: typeof RE2JS };

/** How many instructions RE2 really compiled (re2js keeps the program on `re2Input.prog.inst`). */
function instructions(pattern: string): number {
  const regex = RE2.compile(RE2.translateRegExp(pattern)) as unknown as {
    re2Input: { prog: { inst: unknown[] } };
  };
  return regex.re2Input.prog.inst.length;
}

it.each([
  '^(a|aa){1,1000}$',
  '^[a-z]{1,1000}$',
  '^.{0,1000}$',
  '(ab|cd|ef){1,1000}',
  'a{1000}b{1000}',
  '^(?:[a-z0-9-]{1,63}\\.){1,8}[a-z]{2,24}$',
  '^\\d{3}-\\d{4}$',
  '^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\\.[a-zA-Z]{2,}$',
  '^(?<year>\\d{4})-(?<month>\\d{2})$',
  '((a{1,10}){1,10}){1,10}',
  'x*y+z?(?:q|r)*?',
])('the estimate for %s is at least what RE2 compiles, and not far above', (pattern) => {
  const real = instructions(pattern);
  const estimate = patternCost(pattern);
  expect(estimate).toBeGreaterThanOrEqual(real * 0.9);
  expect(estimate).toBeLessThanOrEqual(real * 2 + 10);
});

it('counted repeats multiply when nested, and a Unicode class weighs more than a character', () => {
  expect(patternCost('(a{1,10}){1,10}')).toBeGreaterThan(100);
  expect(patternCost('((a{1,10}){1,10}){1,10}')).toBeGreaterThan(1000);
  expect(patternCost('\\p{L}{1,100}')).toBeGreaterThan(5 * patternCost('.{1,100}'));
  expect(patternCost('[\\p{L}\\p{N}]{1,100}')).toBeGreaterThan(patternCost('\\p{L}{1,100}'));
});

it('reads a long pattern in time linear in its length', () => {
  const long = 'a|'.repeat(50_000);
  const started = performance.now();
  expect(patternCost(long)).toBeGreaterThanOrEqual(100_000);
  expect(performance.now() - started).toBeLessThan(1_000);
});
