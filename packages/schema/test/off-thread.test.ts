import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import {
  checkSchemaOffThread,
  compileSchema,
  compileSchemaOffThread,
  setSchemaDefaults,
} from '../src/index.js';

// Real worker thread, started from the package's built dist/schema-worker.js (turbo builds it first).

afterEach(() => setSchemaDefaults());

/** `count` plain string properties: ~2,370 of them is the 64 KB size limit. */
function plainSchema(count: number, variant: number): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (let i = 0; i < count; i++) properties[`v${variant}_${i}`] = { type: 'string' };
  return { type: 'object', properties };
}

const SCHEMAS: Record<string, unknown>[] = [
  {
    type: 'object',
    properties: {
      email: { type: 'string', format: 'email' },
      name: { type: 'string', minLength: 2, pattern: '^[a-z]+$' },
      tags: { type: 'array', items: { enum: ['x', { y: 1 }] }, uniqueItems: true },
      nested: { $ref: '#/definitions/node' },
    },
    required: ['email'],
    additionalProperties: false,
    definitions: { node: { type: 'object', properties: { next: { $ref: '#/definitions/node' } } } },
  },
  {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'array',
    prefixItems: [{ type: 'integer' }],
    items: { const: 'z' },
  },
];

const SAMPLES: unknown[] = [
  { email: 'a@b.co' },
  { email: 'nope', name: 'A', tags: ['x', { y: 1 }, { y: 1 }], extra: 1 },
  { nested: { next: { next: 3 } } },
  [1, 'z', 'z'],
  ['a', 'y'],
  'text',
];

describe('compileSchemaOffThread', () => {
  it('gives the same results and errors as compileSchema', async () => {
    for (const schema of SCHEMAS) {
      const copy = structuredClone(schema);
      const off = await compileSchemaOffThread(schema, { maxBytes: 100_000 });
      const here = compileSchema(copy, { maxBytes: 100_000 });
      expect(off.ok && here.ok).toBe(true);
      if (!off.ok || !here.ok) continue;
      expect(off.draft).toBe(here.draft);
      for (const sample of SAMPLES) expect(off.validate(sample)).toEqual(here.validate(sample));
    }
    const wrong = await checkSchemaOffThread({ type: 'banana' }, { label: 'output_schema' });
    expect(wrong).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^output_schema is not a usable JSON Schema: \/type: must be one of/),
    });
    const backreference = await compileSchemaOffThread({ pattern: '(a)\\1' });
    expect(backreference).toMatchObject({
      ok: false,
      error: expect.stringContaining('uses a backreference'),
    });
  });

  it('keeps the result where compileSchema looks, so the session does not compile it again', async () => {
    const off = await compileSchemaOffThread(plainSchema(2_000, 1));
    const started = performance.now();
    const again = compileSchema(plainSchema(2_000, 1));
    expect(again).toBe(off);
    // Compiled here, this schema takes 0.5 to 2 s; found by content it is a walk and a hash.
    expect(performance.now() - started).toBeLessThan(200);
  });

  it('refuses a schema that takes longer than compileTimeoutMs, and compiles the next one in a fresh worker', async () => {
    setSchemaDefaults({ compileTimeoutMs: 20 });
    const slow = await checkSchemaOffThread(plainSchema(2_300, 2), { label: 'output_schema' });
    expect(slow).toMatchObject({ ok: false });
    expect(!slow.ok && slow.message).toMatch(
      /^output_schema is not a usable JSON Schema: it took longer than 20 ms to compile \(the limit, compileTimeoutMs\); a schema may have at most 65536 bytes, 64 levels of nesting and 256 patterns/,
    );
    setSchemaDefaults();
    const next = await compileSchemaOffThread({ type: 'integer' });
    expect(next.ok && next.validate(1.5)).toEqual([expect.objectContaining({ message: 'must be integer' })]);
  });

  it('refuses a schema at once when compileQueueLength schemas already wait', async () => {
    setSchemaDefaults({ compileQueueLength: 1 });
    const results = await Promise.all([3, 4, 5, 6].map((n) => checkSchemaOffThread(plainSchema(1_500, n))));
    const refused = results.filter((r) => !r.ok);
    expect(refused.length).toBeGreaterThan(0);
    expect(!refused[0]?.ok && refused[0]?.message).toMatch(
      /it was not compiled: 1 schemas are already waiting for the schema compiler \(the limit, compileQueueLength\)/,
    );
    expect(results[0]?.ok).toBe(true);
  });

  it('never keeps a process alive once its schemas are compiled', async () => {
    const index = fileURLToPath(new URL('../dist/index.js', import.meta.url));
    const script = `const { compileSchemaOffThread } = await import(${JSON.stringify(index)});
      const r = await compileSchemaOffThread({ type: 'object', properties: { a: { type: 'string' } } });
      console.log(r.ok);`;
    const started = performance.now();
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
      timeout: 20_000,
    });
    expect(stdout.trim()).toBe('true');
    // It exits by itself (a ref'd idle worker would hold it until the 20 s timeout kills it).
    expect(performance.now() - started).toBeLessThan(15_000);
  });
});
