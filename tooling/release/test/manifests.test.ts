// What each public package declares is what its published files need: every package its built
// code or types import is a dependency or a peer (after `workspace:` ranges are rewritten they
// are all npm can see), every bin is a committed file in `files`, and the fields a registry
// page and `npm i` read are there. The registry test proves the same by installing; this finds
// an import no scenario happens to load (a lazy `require` of a rarely used path).
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importedPackages } from '../../vitest/readme-check.js';
import { publicPackages } from '../src/workspace-packages.js';

/** `createRequire(import.meta.url)('x')` and `require2('x')`: the lazy loads tsup leaves as calls. */
const LAZY_REQUIRE = /(?:\brequire\d*|\))\(\s*["']([^"'./][^"']*)["']\s*\)/g;

function builtFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return builtFiles(path);
    return /\.(?:js|d\.ts)$/.test(entry.name) ? [path] : [];
  });
}

function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier);
}

/** Bare packages the built files import, with the first file that does. */
function builtImports(dir: string): Map<string, string> {
  const found = new Map<string, string>();
  // The server's browser bundle (dist/viewer) is self-contained: it imports nothing at run time.
  for (const file of builtFiles(join(dir, 'dist')).filter((f) => !f.includes('/dist/viewer/'))) {
    const code = readFileSync(file, 'utf8');
    const lazy = [...code.matchAll(LAZY_REQUIRE)].map((match) => packageOf(match[1] ?? ''));
    for (const name of [...importedPackages(code).map(({ pkg }) => pkg), ...lazy]) {
      if (!found.has(name)) found.set(name, file.slice(dir.length + 1));
    }
  }
  return found;
}

describe.each(publicPackages().map((p) => [p.name, p] as const))('%s', (_name, pkg) => {
  const { manifest } = pkg;

  it('declares every package its built code and types import (dependencies or peers)', () => {
    const declared = new Set([
      pkg.name,
      ...Object.keys((manifest.dependencies ?? {}) as object),
      ...Object.keys((manifest.peerDependencies ?? {}) as object),
    ]);
    const undeclared = [...builtImports(pkg.dir)]
      .filter(([name]) => !declared.has(name))
      .map(([name, file]) => `${name} (imported by ${file})`);
    expect(undeclared).toEqual([]);
  });

  it('has the fields npm reads: description, license, engines, files, public access', () => {
    expect(manifest.description).toEqual(expect.any(String));
    expect(manifest.license).toBe('MIT');
    expect(manifest.engines).toEqual({ node: '>=20.19' });
    expect(manifest.files).toContain('dist');
    expect(manifest.publishConfig).toEqual({ access: 'public' });
  });

  it('has bins that are committed files (linked by pnpm install before any build) running the built program', () => {
    for (const [bin, target] of Object.entries(manifest.bin ?? {})) {
      expect(target, bin).toMatch(/^\.\/bin\/[\w-]+\.js$/);
      expect(manifest.files, bin).toContain('bin');
      const source = readFileSync(join(pkg.dir, target), 'utf8');
      expect(source.startsWith('#!/usr/bin/env node\n'), bin).toBe(true);
      const built = /new URL\('(\.\.\/dist\/[^']+)'/.exec(source)?.[1];
      expect(built, `${bin} names the built file it runs`).toBeDefined();
      expect(existsSync(join(pkg.dir, 'bin', built ?? '')), `${bin} -> ${built}`).toBe(true);
    }
  });

  it('has bins that, run before the build, say to run pnpm build (no stack trace)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'agent-bin-before-build-'));
    try {
      mkdirSync(join(dir, 'bin'));
      for (const [bin, target] of Object.entries(manifest.bin ?? {})) {
        copyFileSync(join(pkg.dir, target), join(dir, target));
        const run = spawnSync(process.execPath, [join(dir, target)], { encoding: 'utf8', timeout: 10_000 });
        expect(run.status, bin).toBe(1);
        expect(run.stderr, bin).toMatch(
          new RegExp(`^${bin}: .*dist/.* is not built yet: run \`pnpm build\` first\n$`),
        );
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
