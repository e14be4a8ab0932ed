// The closing lines of `pnpm test`, from a real vitest JSON report of fixture tests that pass,
// fail, skip with a reason (skipUnless, requires), skip without one, and a file that fails to load.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';
import { readReports, summarize, workspaceDirs } from '../src/summary.mjs';
import { REPO, tempDir } from './helpers.js';

const FIXTURE = 'tooling/test-setup/test/fixtures/summary';
const CHROMIUM_SKIP =
  'chromium is missing, no executable at /nonexistent/chromium (set CHROMIUM_PATH to use another). ' +
  'Install it with: apt-get update && apt-get install -y chromium';

/** A workspace whose packages/a has the fixture's report, packages/b none, tools/one a green one. */
let workspace: string;

beforeAll(() => {
  workspace = tempDir('summary-workspace-');
  const write = (path: string, text: string) => {
    mkdirSync(join(workspace, path, '..'), { recursive: true });
    writeFileSync(join(workspace, path), text);
  };
  write('pnpm-workspace.yaml', "packages:\n  - packages/*\n  - 'tools/one'\nengineStrict: true\n");
  for (const dir of ['packages/a', 'packages/b', 'tools/one']) write(`${dir}/vitest.config.ts`, '');
  write('packages/c/package.json', '{}');
  const green = {
    testResults: [
      {
        name: join(REPO, 'tools/one/test/x.test.ts'),
        status: 'passed',
        assertionResults: ['one', 'two'].map((title) => ({ ancestorTitles: [], title, status: 'passed' })),
      },
    ],
  };
  write('tools/one/test-results/vitest.json', JSON.stringify(green));
  const vitest = join(REPO, 'node_modules/vitest/vitest.mjs');
  const run = spawnSync(
    process.execPath,
    [
      vitest,
      'run',
      '--root',
      fileURLToPath(new URL('./fixtures/summary/', import.meta.url)),
      '--config',
      'vitest.fixture.config.ts',
      '--reporter=json',
      `--outputFile=${join(workspace, 'packages/a/test-results/vitest.json')}`,
    ],
    { encoding: 'utf8', env: { ...process.env, CHROMIUM_PATH: '/nonexistent/chromium' }, timeout: 60_000 },
  );
  expect(run.status, run.stderr).toBe(1);
});

test("the workspace's folders come from pnpm-workspace.yaml", () => {
  expect(workspaceDirs(workspace).sort()).toEqual(['packages/a', 'packages/b', 'packages/c', 'tools/one']);
});

describe('the summary', () => {
  test('lists each skip under its reason, the failed tests, what else failed, and the closing line last', () => {
    const { lines, ok } = summarize(REPO, readReports(workspace), ['@agent/x#typecheck failed (exit 2)']);
    expect(ok).toBe(false);
    expect(lines).toEqual([
      'skipped tests, by reason:',
      `  ${CHROMIUM_SKIP}:`,
      `    ${FIXTURE}/skips.fixture.ts > the viewer > first`,
      `    ${FIXTURE}/skips.fixture.ts > the viewer > second`,
      '  needs a platform this is not:',
      `    ${FIXTURE}/skips.fixture.ts > skips on this platform`,
      '  todo (not written yet):',
      `    ${FIXTURE}/skips.fixture.ts > written later`,
      '  no reason given (skip with skipUnless or requires of tooling/vitest/skip.ts):',
      `    ${FIXTURE}/skips.fixture.ts > skipped without a reason`,
      'failed tests:',
      `  ${FIXTURE}/broken.fixture.ts`,
      '    cannot load: the fixture is broken on purpose',
      `  ${FIXTURE}/skips.fixture.ts > fails`,
      "    AssertionError: expected 'actual' to be 'expected' // Object.is equality",
      'failed:',
      '  @agent/x#typecheck failed (exit 2)',
      '  no test report from: packages/b',
      'tests: 3 passed, 3 failed, 5 skipped',
    ]);
  });

  test('a green run: no failure lines, the closing line in the form CI reads', () => {
    const green = readReports(workspace).filter((p) => p.dir === 'tools/one');
    const { lines, ok } = summarize(REPO, green);
    expect(ok).toBe(true);
    expect(lines).toEqual(['tests: 2 passed, 0 failed, 0 skipped']);
    expect(lines.at(-1)).toMatch(/^\w+: \d+ passed, \d+ failed, \d+ skipped$/);
  });

  test('a run where nothing passed is no success', () => {
    const { lines, ok } = summarize(REPO, []);
    expect(ok).toBe(false);
    expect(lines).toEqual(['failed:', '  no test passed', 'tests: 0 passed, 0 failed, 0 skipped']);
  });
});
