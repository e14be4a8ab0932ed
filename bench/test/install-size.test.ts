// The install-size suite's measures: packages in a node_modules (scoped, nested) and their bytes;
// the workspace packages a package needs.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { measureNodeModules, workspaceClosure } from '../src/install-size/install.js';

it('counts every package of a node_modules, scoped and nested ones included, and the bytes of their files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-install-test-'));
  try {
    const pkg = (path: string, bytes: number) => {
      mkdirSync(path, { recursive: true });
      writeFileSync(join(path, 'index.js'), 'x'.repeat(bytes));
    };
    pkg(join(dir, 'a'), 100);
    pkg(join(dir, '@scope', 'b'), 200);
    pkg(join(dir, 'a', 'node_modules', 'c'), 300);
    mkdirSync(join(dir, '.bin'));
    const measured = measureNodeModules(dir);
    expect(measured.packages).toBe(3);
    expect(measured.bytes).toBe(600);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

it('finds the workspace packages @agent/providers needs: protocol, not the SDKs', () => {
  const packages = fileURLToPath(new URL('../../packages', import.meta.url));
  expect([...workspaceClosure(packages, ['@agent/providers']).keys()].sort()).toEqual([
    '@agent/protocol',
    '@agent/providers',
  ]);
});
