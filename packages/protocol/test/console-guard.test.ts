import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

// The shared setup must fail a test that prints and pass one that does not.
test('the shared test setup fails a test that writes to the console', () => {
  const require = createRequire(import.meta.url);
  const vitestBin = join(dirname(require.resolve('vitest/package.json')), 'vitest.mjs');
  const fixtureDir = fileURLToPath(new URL('./fixtures/console-guard/', import.meta.url));
  const run = spawnSync(
    process.execPath,
    [vitestBin, 'run', '--root', fixtureDir, '--config', 'vitest.fixture.config.ts', '--reporter', 'verbose'],
    { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', CI: '1' }, timeout: 60_000 },
  );
  const output = run.stdout + run.stderr;
  expect(run.status).toBe(1);
  expect(output).toContain('Library code must not write to the console');
  expect(output).toContain('console.log: hello from a library');
  expect(output).toMatch(/1 failed/);
  expect(output).toMatch(/1 passed/);
}, 60_000);
