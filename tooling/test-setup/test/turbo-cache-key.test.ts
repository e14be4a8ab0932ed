// A cached green test run is replayed only where the same programs are: tooling/turbo.mjs puts
// what it finds (requirements.mjs) in AGENT_TEST_PROGRAMS, and turbo.json makes it part of the
// test tasks' keys. Shown with turbo's own dry run: the key of @agent/protocol#test moves when
// tmux is another binary or is missing, and stays when nothing changed.
import { spawnSync } from 'node:child_process';
import { readdirSync, symlinkSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { fingerprint } from '../src/requirements.mjs';
import { executable, REPO, tempDir } from './helpers.js';

const TASK = '@agent/protocol#test';

interface DryTask {
  taskId: string;
  hash: string;
  environmentVariables: { configured: string[] };
}

/** The environment without the variables of a turbo run this test may itself be part of. */
function cleanEnv(path: string): Record<string, string> {
  const env = Object.entries(process.env).filter(([name]) => !name.startsWith('TURBO_'));
  return { ...Object.fromEntries(env as [string, string][]), PATH: path };
}

function dryRun(path: string): DryTask {
  const run = spawnSync(
    process.execPath,
    [join(REPO, 'tooling/turbo.mjs'), 'run', 'test', '--filter=@agent/protocol', '--dry=json'],
    { cwd: REPO, env: cleanEnv(path), encoding: 'utf8', timeout: 60_000, maxBuffer: 64 * 1024 * 1024 },
  );
  expect(run.status, run.stderr).toBe(0);
  const tasks = (JSON.parse(run.stdout) as { tasks: DryTask[] }).tasks;
  return tasks.find((task) => task.taskId === TASK) as DryTask;
}

/** A PATH with every program of this one but `left`: symlinks in one directory. */
function pathWithout(left: string): string {
  const bin = tempDir('path-without-');
  const seen = new Set([left]);
  for (const dir of (process.env.PATH ?? '').split(delimiter).filter(Boolean)) {
    let names: string[] = [];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    for (const name of names.filter((n) => !seen.has(n))) {
      seen.add(name);
      symlinkSync(join(dir, name), join(bin, name));
    }
  }
  return bin;
}

describe("turbo's key of a test task", () => {
  const path = process.env.PATH ?? '';

  test('holds what the tests find outside the repository, and is the same when that is', () => {
    const task = dryRun(path);
    expect(task.environmentVariables.configured).toContainEqual(
      expect.stringMatching(/^AGENT_TEST_PROGRAMS=/),
    );
    expect(dryRun(path).hash).toBe(task.hash);
  });

  test('changes when a program is another binary, and when it is missing', () => {
    const other = tempDir('other-tmux-');
    executable(join(other, 'tmux'));
    const withoutTmux = pathWithout('tmux');
    expect(fingerprint({ ...process.env, PATH: withoutTmux })).toContain('tmux=missing');
    const hashes = [path, `${other}${delimiter}${path}`, withoutTmux].map((p) => dryRun(p).hash);
    expect(new Set(hashes).size).toBe(3);
  });
});
