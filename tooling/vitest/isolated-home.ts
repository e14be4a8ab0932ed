// Every test file gets a home of its own: HOME and the XDG base directories point into a new
// temp directory while the file runs, child processes the tests spawn inherit them, and the
// directory is removed afterwards. Nothing a test does lands in the user's home; `pnpm test`
// checks that (tooling/test-setup/src/home-check.mjs).
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

/** Each variable and where it points inside the temp home (the XDG defaults). */
const LAYOUT = {
  HOME: '.',
  XDG_CONFIG_HOME: '.config',
  XDG_STATE_HOME: '.local/state',
  XDG_CACHE_HOME: '.cache',
  XDG_DATA_HOME: '.local/share',
} as const;

const home = mkdtempSync(join(tmpdir(), 'agent-test-home-'));
const saved = new Map(Object.keys(LAYOUT).map((name) => [name, process.env[name]]));
for (const [name, path] of Object.entries(LAYOUT)) {
  const dir = join(home, path);
  mkdirSync(dir, { recursive: true });
  process.env[name] = dir;
}

afterAll(() => {
  for (const [name, value] of saved) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  rmSync(home, { recursive: true, force: true });
});
