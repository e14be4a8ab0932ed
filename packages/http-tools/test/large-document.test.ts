// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${parameters.x}` templates are what these tests are about
// A real-world-sized document (thousands of operations) loads, and a filter keeps the tool list small.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { loadOpenApiTools } from '../src/index.js';
import { largeDocument } from './large-document.js';

it('loads a document of 4000 operations and keeps only the filtered ones as tools', async () => {
  const loaded = await loadOpenApiTools({
    name: 'big',
    spec: largeDocument(4000),
    filter: { tags: ['group7'], methods: ['get'] },
  });
  expect(loaded.operationCount).toBe(4000);
  expect(loaded.tools).toHaveLength(40);
  expect(loaded.tools[0]?.name).toBe('big__getItem7');
  expect(loaded.tools[0]?.url).toBe('http://127.0.0.1:9/group7/items7/${parameters.id}');
});

it('without a filter makes every operation a tool, each name unique and at most 64 characters', async () => {
  const loaded = await loadOpenApiTools({ name: 'big', spec: largeDocument(4000) });
  const names = loaded.tools.map((t) => t.name);
  expect(new Set(names).size).toBe(4000);
  expect(names.every((n) => /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/.test(n))).toBe(true);
});

it('gives operations without ids, or with ids that clash, names from a hash of METHOD path', async () => {
  const doc = {
    openapi: '3.0.0',
    info: { title: 'x', version: '1' },
    servers: [{ url: 'http://h' }],
    paths: {
      '/a': { get: { operationId: 'same' }, post: { operationId: 'same' } },
      '/very/long/path/with/many/segments/that/goes/on/and/on/forever': { get: {} },
    },
  };
  const names = (await loadOpenApiTools({ name: 'x', spec: doc })).tools.map((t) => t.name);
  expect(names[0]).toMatch(/^x__same_[0-9a-f]{8}$/);
  expect(names[1]).toMatch(/^x__same_[0-9a-f]{8}$/);
  expect(names[0]).not.toBe(names[1]);
  expect(names[2]?.length).toBe(64);
});

it('refuses a document that is not OpenAPI 3, saying what it found', async () => {
  await expect(loadOpenApiTools({ name: 'x', spec: { swagger: '2.0', paths: {} } })).rejects.toThrow(
    'the document of "x" is not OpenAPI 3.0 or 3.1 (its "openapi" field is "2.0")',
  );
});

it('says which document could not be read when its URL does not answer', async () => {
  await expect(loadOpenApiTools({ name: 'x', spec: 'http://127.0.0.1:9/openapi.json' })).rejects.toThrow(
    /^the OpenAPI document http:\/\/127\.0\.0\.1:9\/openapi\.json cannot be read: /,
  );
});

it('a YAML document with 40,000 keys in one map loads in seconds, not minutes (no quadratic duplicate-key check)', async () => {
  // yaml's own uniqueKeys check compares every key of a map with every other: 20,000 keys took
  // 2.3 s and 40,000 about four times that. Duplicates now count as in JSON.parse: the last wins.
  const dir = mkdtempSync(join(tmpdir(), 'openapi-keys-'));
  try {
    const lines = [
      'openapi: 3.0.0',
      'info: {title: x, version: "1"}',
      'servers: [{url: "http://h"}]',
      'paths: {}',
      'x-many:',
    ];
    for (let i = 0; i < 40_000; i++) lines.push(`  k${i}: ${i}`);
    const spec = join(dir, 'api.yaml');
    writeFileSync(spec, `${lines.join('\n')}\n`);
    const started = performance.now();
    const loaded = await loadOpenApiTools({ name: 'big', spec });
    expect(loaded.operationCount).toBe(0);
    expect(performance.now() - started).toBeLessThan(3_000);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);
