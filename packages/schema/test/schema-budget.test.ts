import { afterEach, describe, expect, it } from 'vitest';
import { checkSchema, compileSchema, setSchemaDefaults } from '../src/index.js';

// A schema from outside may hold only so many patterns, each and all of them within an
// estimated RE2 program size, checked from their text before anything compiles: every one of
// these patterns is RE2-valid, but compiling thousands of them held the event loop for seconds.

/** CPU milliseconds `work` took on this thread (not wall time: a loaded machine cannot fail it). */
function cpuMs(work: () => void): number {
  const before = process.cpuUsage();
  work();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

const expensive = (count: number) => ({
  allOf: Array.from({ length: count }, (_, i) => ({ pattern: `^(a|aa){1,${1000 - i}}$` })),
});

afterEach(() => setSchemaDefaults());

describe('patterns within a budget', () => {
  it('200 expensive patterns are refused before compiling: a problem naming the first, in well under 100 ms', () => {
    let check: ReturnType<typeof checkSchema> | undefined;
    const ms = cpuMs(() => {
      check = checkSchema(expensive(200), { label: 'output_schema' });
    });
    expect(check).toMatchObject({
      ok: false,
      message:
        'output_schema is not a usable JSON Schema: /allOf/0/pattern: pattern "^(a|aa){1,1000}$" would compile to about 7,004 RE2 instructions, more than the limit of 4,000 per pattern (a counted repeat x{n,m} costs m copies of x, and nested repeats multiply)',
    });
    // Compiled, these take 2 to 7 s of CPU; refused from their text, about a millisecond.
    expect(ms).toBeLessThan(100);
  });

  it('more patterns than allowed, however cheap: refused saying the count and the limit', () => {
    const schema = {
      type: 'object',
      patternProperties: Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`^k${i}$`, {}])),
      allOf: Array.from({ length: 200 }, (_, i) => ({ pattern: `^a${i}$` })),
    };
    expect(checkSchema(schema)).toMatchObject({
      ok: false,
      message:
        'the schema is not a usable JSON Schema: the schema has 300 patterns, more than the limit of 256 (pattern and patternProperties keys; each is compiled code and an RE2 program)',
    });
  });

  it('patterns each within the limit but too costly together: refused saying the total', () => {
    const schema = { anyOf: Array.from({ length: 6 }, (_, i) => ({ pattern: `^[a-z]{1,${1000 - i}}$` })) };
    const check = checkSchema(schema);
    expect(check.ok).toBe(false);
    expect(check.ok ? '' : check.message).toMatch(
      /^the schema is not a usable JSON Schema: the schema's 6 distinct patterns would compile to about 11,9\d\d RE2 instructions in all, more than the limit of 10,000 per schema$/,
    );
    // Three of them fit, and validate.
    const three = compileSchema({ anyOf: schema.anyOf.slice(0, 3) });
    if (!three.ok) throw new Error(three.error);
    expect(three.validate('abc')).toEqual([]);
  });

  it('one pattern repeated 256 times is compiled once', () => {
    const schema = { allOf: Array.from({ length: 256 }, () => ({ pattern: '^[a-z]{1,950}$' })) };
    let result: ReturnType<typeof compileSchema> | undefined;
    // Compiled 256 times over, it took 2.5 s or more.
    const ms = cpuMs(() => {
      result = compileSchema(schema);
    });
    expect(result?.ok).toBe(true);
    expect(ms).toBeLessThan(1_000);
  });

  it('a definition referenced 100 times compiles once, not inlined 100 times', () => {
    const properties = Object.fromEntries(
      Array.from({ length: 100 }, (_, i) => [`x${i}`, { type: 'string' }]),
    );
    const schema = {
      definitions: { leaf: { type: 'object', properties } },
      allOf: Array.from({ length: 100 }, () => ({ $ref: '#/definitions/leaf' })),
    };
    let result: ReturnType<typeof compileSchema> | undefined;
    // Inlined, this was 10,000 properties' code: 4 s.
    const ms = cpuMs(() => {
      result = compileSchema(schema);
    });
    if (!result?.ok) throw new Error('did not compile');
    expect(result.validate({ x1: 'a' })).toEqual([]);
    expect(result.validate({ x1: 1 }).length).toBeGreaterThan(0);
    expect(ms).toBeLessThan(1_000);
  });

  it('real patterns fit: bounded lengths up to 1,000, Unicode classes, e-mail and host names', () => {
    const schema = {
      type: 'object',
      properties: {
        name: { type: 'string', pattern: '^\\p{L}[\\p{L} .-]{0,99}$' },
        text: { type: 'string', pattern: '^[\\s\\S]{1,1000}$' },
        email: { type: 'string', pattern: '^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\\.[a-zA-Z]{2,}$' },
        host: { type: 'string', pattern: '^(?:[a-z0-9-]{1,63}\\.){1,8}[a-z]{2,24}$' },
      },
    };
    const result = compileSchema(schema);
    if (!result.ok) throw new Error(result.error);
    expect(result.validate({ name: 'Zoë', email: 'a@b.io', host: 'api.example.com', text: 'x' })).toEqual([]);
  });
});

describe('changing the limits', () => {
  it('setSchemaDefaults raises a limit for every later check; a call without it restores the default', () => {
    const schema = { type: 'string', pattern: '^(a|aa){1,1000}$' };
    expect(checkSchema(schema).ok).toBe(false);
    setSchemaDefaults({ maxPatternCost: 8_000 });
    const result = compileSchema(schema);
    if (!result.ok) throw new Error(result.error);
    expect(result.validate('aaa')).toEqual([]);
    setSchemaDefaults();
    expect(checkSchema(schema).ok).toBe(false);
    // One check with its own limits, the defaults untouched.
    expect(checkSchema(schema, { maxPatternCost: 8_000 }).ok).toBe(true);
    expect(checkSchema({ pattern: 'a{1,10}' }, { maxPatternCost: 5 })).toMatchObject({ ok: false });
  });

  it('refuses a limit that is not a positive integer, saying which', () => {
    expect(() => setSchemaDefaults({ maxPatterns: 0 })).toThrow(
      'schema default maxPatterns must be an integer of at least 1, got 0',
    );
    expect(() => setSchemaDefaults({ compiledCacheBytes: -1 })).toThrow(
      'schema default compiledCacheBytes must be an integer of at least 0, got -1',
    );
  });
});
