// tooling/vitest/isolated-home.ts, the setup every package's tests run with: each test file gets
// a home of its own (HOME and the XDG directories), its child processes too, and it is removed
// afterwards.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { homedir, tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { tempDir } from './helpers.js';

test('this file runs with a temp home, not the real one', () => {
  expect(process.env.HOME).not.toBe(userInfo().homedir);
  expect(homedir().startsWith(join(tmpdir(), 'agent-test-home-'))).toBe(true);
  expect(process.env.XDG_STATE_HOME).toBe(join(homedir(), '.local', 'state'));
});

test('each test file gets its own home, its children see it, and it is gone afterwards', () => {
  const fixture = fileURLToPath(new URL('./fixtures/isolated-home/', import.meta.url));
  const vitest = fileURLToPath(new URL('../../../node_modules/vitest/vitest.mjs', import.meta.url));
  const realHome = tempDir('real-home-');
  const record = join(tempDir('record-'), 'homes.jsonl');
  const run = spawnSync(
    process.execPath,
    [vitest, 'run', '--root', fixture, '--config', 'vitest.fixture.config.ts'],
    {
      encoding: 'utf8',
      env: { ...process.env, HOME: realHome, HOME_RECORD: record, NO_COLOR: '1' },
      timeout: 60_000,
    },
  );
  expect(run.status, run.stdout + run.stderr).toBe(0);
  const seen = readFileSync(record, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { file: string; env: Record<string, string>; child: string });
  expect(seen.map((s) => s.file).sort()).toEqual(['a', 'b']);
  const [a, b] = seen.map((s) => s.env.HOME as string);
  expect(a).not.toBe(b);
  for (const { env, child } of seen) {
    expect(env.HOME?.startsWith(join(tmpdir(), 'agent-test-home-'))).toBe(true);
    expect(env).toEqual({
      HOME: env.HOME,
      XDG_CONFIG_HOME: join(env.HOME as string, '.config'),
      XDG_STATE_HOME: join(env.HOME as string, '.local', 'state'),
      XDG_CACHE_HOME: join(env.HOME as string, '.cache'),
      XDG_DATA_HOME: join(env.HOME as string, '.local', 'share'),
    });
    expect(child).toBe(env.HOME);
    expect(existsSync(env.HOME as string)).toBe(false);
  }
  // The sessions file the fixture wrote went to the temp homes, not to the home it was given.
  expect(readdirSync(realHome)).toEqual([]);
});
