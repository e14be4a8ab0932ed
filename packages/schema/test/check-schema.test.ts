import { describe, expect, it } from 'vitest';
import {
  checkSchema,
  compileSchema,
  DEFAULT_MAX_SCHEMA_DEPTH,
  pointerSegments,
  schemaDraft,
} from '../src/index.js';

function nested(levels: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: 'string' };
  for (let i = 0; i < levels; i++) schema = { type: 'object', properties: { a: schema } };
  return schema;
}

function failed(check: ReturnType<typeof checkSchema>): { problems: readonly string[]; message: string } {
  if (check.ok) throw new Error('expected the schema to be refused');
  return check;
}

describe('checkSchema', () => {
  it('names a wrong type value and the values allowed', () => {
    const check = failed(checkSchema({ type: 'banana' }, { label: 'schema' }));
    expect(check.message).toMatch(/^schema is not a usable JSON Schema: \/type: must be one of "array", /);
    expect(check.message).toContain('(got "banana")');
  });

  it('lists every wrong place at once', () => {
    const check = failed(
      checkSchema({
        type: 'object',
        required: 'a',
        properties: { a: { type: 'strin' }, b: { minLength: -1 } },
      }),
    );
    expect(check.problems).toEqual([
      '/required: must be array (got "a")',
      expect.stringMatching(/^\/properties\/a\/type: must be one of .* \(got "strin"\)$/),
      '/properties/b/minLength: must be >= 0 (got -1)',
    ]);
  });

  it('refuses a 20,000-level schema by its depth without overflowing the stack', () => {
    const check = failed(checkSchema(nested(20_000)));
    expect(check.problems).toHaveLength(1);
    expect(check.problems[0]).toMatch(/^\/properties\/a\/.*…: nests deeper than the limit of 64 levels$/);
  });

  it('accepts a schema at the depth limit and refuses one a level deeper', () => {
    // Each nested schema adds two JSON levels (the schema and its `properties`).
    const levels = (DEFAULT_MAX_SCHEMA_DEPTH - 1) / 2;
    expect(checkSchema(nested(Math.floor(levels))).ok).toBe(true);
    expect(checkSchema(nested(Math.floor(levels)), { maxDepth: 10 }).ok).toBe(false);
  });

  it('refuses a schema larger than the size limit, saying the limit', () => {
    const properties = Object.fromEntries(
      Array.from({ length: 200 }, (_, i) => [`field_${i}`, { type: 'string' }]),
    );
    const check = failed(checkSchema({ type: 'object', properties }, { maxBytes: 1000 }));
    expect(check.message).toContain('is larger than the limit of 1000 bytes as JSON');
  });

  it('refuses cycles and values JSON cannot hold', () => {
    const cyclic: Record<string, unknown> = { type: 'object' };
    cyclic.properties = { self: cyclic };
    expect(failed(checkSchema(cyclic)).problems).toEqual(['/properties/self: refers to itself (a cycle)']);
    expect(failed(checkSchema({ default: () => 1 })).problems).toEqual([
      '/default: is a function, which JSON cannot hold',
    ]);
    expect(failed(checkSchema([{ type: 'string' }])).problems).toEqual([
      'must be a JSON Schema object, got an array',
    ]);
  });

  it('refuses a $schema it does not support, naming the drafts it does', () => {
    const check = failed(checkSchema({ $schema: 'http://json-schema.org/draft-04/schema#' }));
    expect(check.message).toContain('draft-07, 2019-09, 2020-12');
  });

  it('switches the draft by $schema', () => {
    expect(schemaDraft({})).toBe('draft-07');
    expect(schemaDraft({ $schema: 'https://json-schema.org/draft/2020-12/schema' })).toBe('2020-12');
    expect(schemaDraft({ $schema: 'https://json-schema.org/draft/2019-09/schema' })).toBe('2019-09');
    // prefixItems is a 2020-12 keyword: it only constrains under that draft.
    const schema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'array',
      prefixItems: [{ type: 'number' }],
    };
    const compiled = compileSchema(schema);
    expect(compiled.ok && compiled.validate(['x']).map((e) => e.message)).toEqual(['must be number']);
  });

  it('accepts boolean schemas and caches the result per schema object', () => {
    expect(checkSchema(true).ok).toBe(true);
    const schema = { type: 'object' };
    expect(compileSchema(schema)).toBe(compileSchema(schema));
  });

  it('validates formats from ajv-formats', () => {
    const compiled = compileSchema({ type: 'string', format: 'email' });
    expect(compiled.ok && compiled.validate('not an email').map((e) => e.message)).toEqual([
      'must match format "email"',
    ]);
  });

  it('turns a stack overflow on a deep value into a validation error', () => {
    const compiled = compileSchema({
      $ref: '#/definitions/node',
      definitions: { node: { type: 'array', items: { $ref: '#/definitions/node' } } },
    });
    let value: unknown[] = [];
    for (let i = 0; i < 200_000; i++) value = [value];
    expect(compiled.ok && compiled.validate(value).map((e) => e.message)).toEqual([
      'is nested too deeply to validate',
    ]);
  });
});

describe('pointerSegments', () => {
  it('unescapes ~1 and ~0 in each segment of an instancePath', () => {
    expect(pointerSegments('')).toEqual([]);
    expect(pointerSegments('/a~1b/0/c~0d')).toEqual(['a/b', '0', 'c~d']);
  });
});

describe('compileSchema by content', () => {
  it('compiles a schema sent again as a new object only once', () => {
    const make = () => ({ type: 'object', properties: { city: { type: 'string', pattern: '^[A-Z]' } } });
    const first = compileSchema(make());
    const again = compileSchema(make());
    expect(first.ok && again.ok && again.validate).toBe(first.ok && first.validate);
    // Another schema is another entry.
    const other = compileSchema({ ...make(), required: ['city'] });
    expect(other.ok && other.validate).not.toBe(first.ok && first.validate);
  });
});
