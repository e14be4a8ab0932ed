// `pnpm test`: the preflight (what the tests need outside the repository, in its first
// seconds), Biome over the repository, then turbo's build, typecheck, lint, test and
// check-exports of every package, the quick benchmark run, and the home check (nothing under
// the real home changed). Whatever fails, it goes on where it can and ends with one summary:
// the skips with their reasons, what failed, and the closing line CI reads. Exit 1 on any failure.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { exclusions, homeChanges, snapshotHome } from './home-check.mjs';
import { preflight } from './preflight.mjs';
import { REPO_DIR } from './requirements.mjs';
import { readReports, summarize, workspaceDirs } from './summary.mjs';

/** At most this many changed home paths are named. */
const SHOWN_HOME_CHANGES = 30;
const TURBO = join(REPO_DIR, 'tooling', 'turbo.mjs');

function run(label, args) {
  process.stdout.write(`\n== ${label}\n`);
  const result = spawnSync(process.execPath, args, { cwd: REPO_DIR, stdio: 'inherit' });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

/** The failed tasks of the turbo run that wrote its summary after `since`; removes the summary. */
function turboFailures(since) {
  const dir = join(REPO_DIR, '.turbo', 'runs');
  const files = existsSync(dir) ? readdirSync(dir).map((name) => join(dir, name)) : [];
  const newest = files
    .filter((file) => statSync(file).mtimeMs >= since)
    .sort()
    .at(-1);
  if (newest === undefined) return ['turbo wrote no run summary'];
  const summary = JSON.parse(readFileSync(newest, 'utf8'));
  rmSync(newest, { force: true });
  return summary.tasks
    .filter((task) => task.execution !== undefined && task.execution.exitCode !== 0)
    .map((task) => `${task.taskId} failed (exit ${task.execution.exitCode})`);
}

/** The home check's failure lines: what changed under the home since `before`. */
function homeCheck(home, list, before) {
  const after = snapshotHome(home, { exclusions: list, maxDepth: before.depth });
  const changes = homeChanges(before, after, { exclusions: list });
  if (changes.length === 0) return [];
  const shown = changes.slice(0, SHOWN_HOME_CHANGES).map((change) => `    ${change}`);
  const more =
    changes.length > SHOWN_HOME_CHANGES ? [`    ... and ${changes.length - SHOWN_HOME_CHANGES} more`] : [];
  return [
    `the tests changed ${changes.length} path(s) under ${home} (tests must use their own HOME):`,
    ...shown,
    ...more,
  ];
}

const message = preflight();
if (message !== undefined) {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

const failures = [];
const biome = createRequire(import.meta.url).resolve('@biomejs/biome/bin/biome');
if (run('biome check .', [biome, 'check', '.']) !== 0) failures.push('biome check . failed');

const home = homedir();
const excluded = exclusions(home, REPO_DIR);
const before = snapshotHome(home, { exclusions: excluded });
// A report left by an earlier run would count as this run's; turbo restores cached ones.
for (const dir of workspaceDirs(REPO_DIR)) {
  rmSync(join(REPO_DIR, dir, 'test-results', 'vitest.json'), { force: true });
}

const tasks = ['build', 'typecheck', 'lint', 'test', 'check-exports'];
const started = Date.now();
const turboArgs = ['--concurrency=2', '--continue=dependencies-successful', '--summarize'];
const turboStatus = run(`turbo run ${tasks.join(' ')}`, [TURBO, 'run', ...tasks, ...turboArgs]);
const failedTasks = turboFailures(started);
if (turboStatus !== 0) {
  failures.push(...(failedTasks.length > 0 ? failedTasks : [`turbo run failed (exit ${turboStatus})`]));
  failures.push('bench --quick did not run (the tasks before it failed)');
} else if (run('bench --quick', [TURBO, 'run', 'bench', '--concurrency=1', '--', '--quick']) !== 0) {
  failures.push('bench --quick failed');
}
failures.push(...homeCheck(home, excluded, before));

const { lines, ok } = summarize(REPO_DIR, readReports(REPO_DIR), failures);
process.stdout.write(`\n== summary\n${lines.join('\n')}\n`);
process.exit(ok ? 0 : 1);
