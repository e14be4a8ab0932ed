// Run by every package's and app's `vitest run` (tooling/vitest/shared.ts adds it): the files of
// the package's `src/` import one another without a cycle, type-only imports included
// (docs/architecture.md).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { findImportCycles } from './import-cycles.js';

describe('import cycles', () => {
  test("no cycle between the files of this package's src/", () => {
    expect(findImportCycles(join(process.cwd(), 'src'))).toEqual([]);
  });

  describe('the check finds them', () => {
    const dir = mkdtempSync(join(tmpdir(), 'import-cycles-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const write = (path: string, text: string) => {
      mkdirSync(join(dir, path, '..'), { recursive: true });
      writeFileSync(join(dir, path), text);
    };
    write('a.ts', "import type { B } from './sub/b.js';\nexport type A = { b?: B };\n");
    write('sub/b.ts', "export type { C } from './c.js';\nexport type B = number;\n");
    write('sub/c.ts', "export const load = () => import('../a.js');\nexport type C = string;\n");
    write('sub/index.ts', "export * from './b.js';\n");
    write('d.ts', "import { load } from './sub/c.js';\nimport './sub';\nexport const d = load;\n");

    test('a type-only import, a re-export and a dynamic import close a cycle; the rest is not on it', () => {
      expect(findImportCycles(dir)).toEqual([['a.ts', 'sub/b.ts', 'sub/c.ts']]);
    });
  });
});
