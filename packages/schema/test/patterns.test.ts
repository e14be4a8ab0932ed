import { describe, expect, it } from 'vitest';
import { checkSchema, compileSchema, createAjv, patternProblem } from '../src/index.js';

const CATASTROPHIC = '^(a+)+$';

describe('patterns run on RE2', () => {
  it('answers a catastrophic pattern against a long input at once', () => {
    const compiled = compileSchema({ type: 'string', pattern: CATASTROPHIC });
    if (!compiled.ok) throw new Error(compiled.error);
    const input = `${'a'.repeat(100_000)}b`;
    const started = performance.now();
    const errors = compiled.validate(input);
    const elapsed = performance.now() - started;
    expect(errors.map((e) => e.keyword)).toEqual(['pattern']);
    expect(compiled.validate('aaaa')).toEqual([]);
    // A backtracking engine needs minutes for 30 characters of this; RE2 needs milliseconds
    // for 100,000. The bound is loose so a loaded machine cannot fail it.
    expect(elapsed).toBeLessThan(2_000);
  });

  it('searches unanchored, as JSON Schema patterns do, and keeps patterns apart', () => {
    const compiled = compileSchema({
      type: 'object',
      properties: { a: { type: 'string', pattern: 'x' }, b: { type: 'string', pattern: 'y' } },
      patternProperties: { '^n-\\d+$': { type: 'number' } },
    });
    if (!compiled.ok) throw new Error(compiled.error);
    expect(compiled.validate({ a: '--x--', b: 'y' })).toEqual([]);
    expect(compiled.validate({ a: 'y', b: 'x' }).map((e) => e.instancePath)).toEqual(['/a', '/b']);
    expect(compiled.validate({ 'n-12': 'twelve' }).map((e) => e.instancePath)).toEqual(['/n-12']);
  });

  it('reads ECMAScript syntax: \\d, \\u escapes, named groups, Unicode classes', () => {
    const compiled = compileSchema({ type: 'string', pattern: '^(?<word>\\p{L}+)-\\d{2}\\u00e9$' });
    if (!compiled.ok) throw new Error(compiled.error);
    expect(compiled.validate('café-42é')).toEqual([]);
    expect(compiled.validate('cafe-4é')).toHaveLength(1);
  });

  it.each([
    ['(a)\\1', 'a backreference (\\1)'],
    ['(?<x>a)\\k<x>', 'a named backreference'],
    ['a(?=b)', 'a lookahead'],
    ['a(?!b)', 'a negative lookahead'],
    ['(?<=a)b', 'a lookbehind'],
    ['(?<!a)b', 'a negative lookbehind'],
  ])('refuses %s clearly instead of falling back to backtracking', (pattern, construct) => {
    const check = checkSchema({ type: 'string', pattern });
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.message).toContain(`uses ${construct}`);
    expect(check.message).toContain('RE2 cannot run');
  });

  it('refuses patternProperties keys RE2 cannot run, and RE2 syntax errors, with the reason', () => {
    expect(checkSchema({ patternProperties: { '(a)\\1': { type: 'number' } } }).ok).toBe(false);
    expect(patternProblem('a{1001}')).toMatch(/RE2 cannot run.*invalid repeat count/);
    expect(patternProblem('[\\w-]+@\\S+')).toBeUndefined();
  });

  it('a brace inside a character class is not mistaken for a lookaround', () => {
    expect(patternProblem('[(?=]x')).toBeUndefined();
    expect(patternProblem('\\(?=x')).toBeUndefined();
  });

  it('createAjv instances use RE2 too (lenient mode for tool schemas)', () => {
    const ajv = createAjv('draft-07', { validateSchema: false });
    const validate = ajv.compile({ type: 'string', pattern: CATASTROPHIC });
    const started = performance.now();
    expect(validate(`${'a'.repeat(50_000)}!`)).toBe(false);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(() => ajv.compile({ type: 'string', pattern: '(a)\\1' })).toThrow(/backreference/);
  });
});
