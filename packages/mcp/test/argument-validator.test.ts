import { describe, expect, it } from 'vitest';
import { ArgumentValidator } from '../src/client/argument-validator.js';

const schema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: {
    query: { type: 'string', minLength: 1 },
    limit: { type: 'integer', minimum: 1 },
    mode: { type: 'string', enum: ['fast', 'deep'] },
    url: { type: 'string', format: 'uri' },
    tags: { type: 'array', items: { type: 'string' } },
  },
  required: ['query'],
  additionalProperties: false,
};

describe('ArgumentValidator', () => {
  const validator = new ArgumentValidator();
  const check = (args: unknown) => validator.check('search', 'srv__search', schema, args);

  it('accepts arguments that fit', () => {
    expect(check({ query: 'x', limit: 3, mode: 'deep', url: 'https://example.com', tags: ['a'] })).toEqual({
      ok: true,
    });
  });

  it('names every wrong path, what it got, and what is allowed', () => {
    const result = check({ limit: 0, mode: 'slow', tags: [1], extra: true, url: 'not a uri' });
    expect(result.ok).toBe(false);
    const message = result.ok ? '' : result.message;
    expect(message).toContain('Invalid arguments for tool "srv__search":');
    expect(message).toContain('- arguments: missing required property "query"');
    expect(message).toContain('- arguments: unknown property "extra" is not allowed');
    expect(message).toContain('- "/limit": must be >= 1');
    expect(message).toContain('- "/mode": must be one of "fast", "deep", got string "slow"');
    expect(message).toContain('- "/tags/0": must be string, got number 1');
    expect(message).toContain('- "/url": must match format "uri"');
    expect(message).toContain(
      'Allowed properties: query (string, required), limit (integer), mode (one of "fast"|"deep"), url (string), tags (array).',
    );
  });

  it('supports draft 2020-12 schemas', () => {
    const modern = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: { pair: { type: 'array', prefixItems: [{ type: 'number' }, { type: 'string' }] } },
    };
    expect(validator.check('modern', 'm', modern, { pair: [1, 'a'] })).toEqual({ ok: true });
    const bad = validator.check('modern', 'm', modern, { pair: ['a', 1] });
    expect(bad.ok === false && bad.message).toContain('"/pair/0": must be number, got string "a"');
  });

  it('skips the check when a schema cannot be compiled (the server still validates)', () => {
    const broken = { type: 'object', properties: { a: { $ref: '#/definitions/missing' } } };
    expect(validator.check('broken', 'b', broken, { a: 1 })).toEqual({ ok: true });
  });

  it("runs a server schema's catastrophic pattern on RE2: a long argument is answered at once", () => {
    const server = { type: 'object', properties: { id: { type: 'string', pattern: '^(a+)+$' } } };
    const started = performance.now();
    const result = validator.check('ids', 'srv__ids', server, { id: `${'a'.repeat(100_000)}!` });
    expect(result.ok === false && result.message).toContain('"/id": must match pattern "^(a+)+$"');
    // A backtracking engine would not finish this in a lifetime; the bound is loose for loaded machines.
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('skips the check for a schema nested deeper than Ajv can compile, without a stack overflow', () => {
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 20_000; i++) deep = { type: 'object', properties: { a: deep } };
    expect(validator.check('deep', 'd', deep, { a: 1 })).toEqual({ ok: true });
  });
});
