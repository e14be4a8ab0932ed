import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { EvalInputError, loadDataset, MAX_DATASET_CASES } from '../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'evals-dataset-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, content: string): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

async function problem(name: string, content: string): Promise<string> {
  const error = await loadDataset(file(name, content)).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(EvalInputError);
  return (error as Error).message;
}

test('JSONL: one case per line, ids default to case-<line>, blank lines skipped', async () => {
  const path = file('a.jsonl', '{"input":"one"}\n\n{"id":"two","input":{"q":2},"expected":[1]}\n');
  const dataset = await loadDataset(path);
  expect(dataset.cases.map(({ id, input, expected }) => ({ id, input, expected }))).toEqual([
    { id: 'case-1', input: 'one', expected: undefined },
    { id: 'two', input: { q: 2 }, expected: [1] },
  ]);
});

test('YAML: scorers, budgets and cases; scorer specs keep their place', async () => {
  const dataset = await loadDataset(
    file(
      'a.yaml',
      'scorers:\n  - {type: equals}\nbudgets: {turns: 2}\ncases:\n  - input: hi\n    settings: {scorers: [{type: contains, value: x}]}\n',
    ),
  );
  expect(dataset.budgets).toEqual({ turns: 2 });
  expect(dataset.scorers).toEqual([
    { spec: { type: 'equals' }, where: `${join(dir, 'a.yaml')}: scorers[0]` },
  ]);
  expect(dataset.cases[0]!.placedScorers[0]!.where).toBe(
    `${join(dir, 'a.yaml')}: cases[0] (case-1): settings.scorers[0]`,
  );
});

test('bad cases name the file, the line or case, and what is allowed', async () => {
  expect(await problem('b.jsonl', '{"input":""}\n')).toMatch(
    /b\.jsonl:1: input must be a non-empty prompt or a JSON object/,
  );
  expect(await problem('c.jsonl', '{"input":"x","id":"a b"}\n')).toContain(
    'id "a b" must be 1-100 letters, digits',
  );
  expect(await problem('d.jsonl', '{"input":"x","settings":{"format":"pdf"}}\n')).toContain(
    'settings.format "pdf": one of',
  );
  expect(await problem('e.jsonl', '{"input":"x","settings":{"budgets":{"turns":-1}}}\n')).toContain(
    'settings.budgets: turns must be a number from 0',
  );
  expect(await problem('f.yaml', 'cases: {a: 1}\n')).toContain(
    'a YAML dataset is a mapping with scorers, budgets, cases',
  );
  expect(await problem('g.yaml', 'a: &a [1]\nb: *a\nc: [\n')).toContain('not valid YAML');
  expect(await problem('h.jsonl', '{"id":"x","input":"1"}\n{"id":"x","input":"2"}\n')).toContain(
    'h.jsonl:2: the id "x" is taken by',
  );
});

test('size and count are bounded', async () => {
  const many = `${Array.from({ length: MAX_DATASET_CASES + 1 }, (_, n) => `{"input":"q${n}"}`).join('\n')}\n`;
  expect(await problem('many.jsonl', many)).toContain(`more than ${MAX_DATASET_CASES} cases`);
  const big = file('big.jsonl', '');
  writeFileSync(big, Buffer.alloc(16 * 1024 * 1024 + 1, 32));
  const error = await loadDataset(big).catch((caught: unknown) => caught);
  expect((error as Error).message).toContain('larger than the limit of 16 MiB');
  expect(
    ((await loadDataset(join(dir, 'missing.jsonl')).catch((caught: unknown) => caught)) as Error).message,
  ).toContain('cannot be read');
});
