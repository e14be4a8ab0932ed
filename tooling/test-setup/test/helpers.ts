import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';

export const SRC_DIR = fileURLToPath(new URL('../src/', import.meta.url));
export const REPO = fileURLToPath(new URL('../../../', import.meta.url));

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** An executable file at `path` (a stand-in for a program the preflight looks for). */
export function executable(path: string, text = '#!/bin/sh\nexit 0\n'): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  chmodSync(path, 0o755);
}

/**
 * A checkout with nothing but the test setup's scripts (no tooling/conformance/node_modules),
 * and a bin directory holding only `node`: a bare machine, as far as the preflight can tell.
 */
export function bareMachine(): { repo: string; bin: string; preflight: string; runner: string } {
  const root = tempDir('bare-machine-');
  const repo = join(root, 'repo');
  cpSync(SRC_DIR, join(repo, 'tooling', 'test-setup', 'src'), { recursive: true });
  const bin = join(root, 'bin');
  mkdirSync(bin);
  symlinkSync(process.execPath, join(bin, 'node'));
  const src = join(repo, 'tooling', 'test-setup', 'src');
  return { repo, bin, preflight: join(src, 'preflight.mjs'), runner: join(src, 'run.mjs') };
}

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Runs `node script args` with exactly `env` (plus the test's HOME), bounded in time. */
export function runNode(script: string, args: string[], env: Record<string, string>, cwd?: string): Run {
  const started = Date.now();
  const run = spawnSync(process.execPath, [script, ...args], {
    cwd,
    env: { HOME: process.env.HOME ?? '', ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr, ms: Date.now() - started };
}
