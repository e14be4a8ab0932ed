import { rmSync, writeFileSync } from 'node:fs';
import type { ValidateFunction } from 'ajv';
import { afterAll, describe, expect, it } from 'vitest';
import { createAjv, standaloneValidators } from '../src/index.js';

const SCHEMA = {
  type: 'object',
  properties: {
    name: { type: 'string', pattern: '^[a-z]+$', minLength: 2 },
    slow: { type: 'string', pattern: '^(a+)+$' },
    tags: { type: 'array', items: { enum: ['x', { y: 1 }] }, uniqueItems: true },
  },
  required: ['name'],
  additionalProperties: false,
};

const written: URL[] = [];
afterAll(() => {
  for (const file of written) rmSync(file, { force: true });
});

/** Writes the generated module beside this test (so it resolves `@agent/schema/standalone`) and loads it. */
async function load(code: string): Promise<Record<string, ValidateFunction>> {
  const file = new URL(`./standalone-${written.length}.generated.mjs`, import.meta.url);
  written.push(file);
  writeFileSync(file, code);
  return (await import(file.href)) as Record<string, ValidateFunction>;
}

describe('standaloneValidators', () => {
  it('generates validators that answer as the factory compiled ones do, patterns on RE2', async () => {
    const code = standaloneValidators({ item: SCHEMA }, { verbose: true });
    expect(code).not.toMatch(/require\(/);
    const { item } = await load(code);
    const compiled = createAjv('draft-07', { verbose: true }).compile(SCHEMA);
    const samples = [
      { name: 'ok' },
      { name: 'A' },
      { name: '😀😀' },
      { other: 1 },
      { name: 'ab', tags: ['x', { y: 1 }, { y: 1 }] },
      { name: 'ab', slow: `${'a'.repeat(50_000)}!` },
    ];
    for (const sample of samples) {
      expect(item!(sample)).toBe(compiled(sample));
      expect(item!.errors ?? null).toEqual(compiled.errors ?? null);
    }
    expect(item!({ name: 'A' })).toBe(false);
    expect(item!.errors).toContainEqual(expect.objectContaining({ keyword: 'pattern', data: 'A' }));
  });

  it('refuses a schema whose code needs an Ajv helper the standalone entry does not carry', () => {
    expect(() => standaloneValidators({ link: { type: 'string', format: 'uri' } })).toThrow(
      /generated code needs require\(.*\), which @agent\/schema\/standalone does not export/,
    );
  });
});
