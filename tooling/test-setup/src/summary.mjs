// The closing lines of `pnpm test`, from the JSON report each package's vitest run writes to
// test-results/vitest.json (tooling/vitest/shared.ts) and from what the runner saw fail: every
// skipped test with its reason (tooling/vitest/skip.ts puts it in the test's meta), the failed
// tests with the first line of their error, the steps and turbo tasks that failed, and last the
// line CI reads: `tests: N passed, N failed, N skipped`.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** At most this many failed tests are named; the count says how many more there were. */
const SHOWN_FAILURES = 50;
const MESSAGE_CHARS = 300;
/** The statuses the closing line counts as skipped: skipped, todo, and never finished. */
const SKIPPED = new Set(['skipped', 'todo', 'pending']);
export const NO_REASON = 'no reason given (skip with skipUnless or requires of tooling/vitest/skip.ts)';

/** The workspace's package folders, relative to the repository (pnpm-workspace.yaml's list). */
export function workspaceDirs(repoDir) {
  const text = readFileSync(join(repoDir, 'pnpm-workspace.yaml'), 'utf8');
  const section = text.split(/^packages:\s*$/m)[1] ?? '';
  const globs = [];
  for (const line of section.split('\n')) {
    const entry = /^\s+-\s+['"]?([^'"\s]+)['"]?\s*$/.exec(line);
    if (entry) globs.push(entry[1]);
    else if (/^\S/.test(line)) break;
  }
  return globs.flatMap((glob) => {
    if (!glob.endsWith('/*')) return [glob];
    const parent = glob.slice(0, -2);
    if (!existsSync(join(repoDir, parent))) return [];
    return readdirSync(join(repoDir, parent), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `${parent}/${entry.name}`);
  });
}

/** Each package with a vitest config, and its report (undefined when it wrote none). */
export function readReports(repoDir) {
  return workspaceDirs(repoDir)
    .filter((dir) => existsSync(join(repoDir, dir, 'vitest.config.ts')))
    .map((dir) => {
      const file = join(repoDir, dir, 'test-results', 'vitest.json');
      return { dir, report: existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined };
    });
}

function testName(repoDir, file, test) {
  const path = relative(repoDir, file.name);
  return [path, ...(test.ancestorTitles ?? []), test.title].join(' > ');
}

function firstLine(text) {
  const [line = ''] = String(text ?? '')
    .trim()
    .split('\n');
  return line.length > MESSAGE_CHARS ? `${line.slice(0, MESSAGE_CHARS)}...` : line;
}

function skipReason(test) {
  if (test.status === 'todo') return 'todo (not written yet)';
  if (test.status === 'pending') return 'never finished (the run stopped first)';
  return test.meta?.skipReason ?? NO_REASON;
}

function skippedLines(repoDir, packages) {
  const byReason = new Map();
  for (const { report } of packages) {
    for (const file of report?.testResults ?? []) {
      for (const test of (file.assertionResults ?? []).filter((t) => SKIPPED.has(t.status))) {
        const reason = skipReason(test);
        byReason.set(reason, [...(byReason.get(reason) ?? []), testName(repoDir, file, test)]);
      }
    }
  }
  if (byReason.size === 0) return [];
  const lines = ['skipped tests, by reason:'];
  // Sorted, so two runs print alike; the skips without a reason last.
  const last = (reason) => Number(reason === NO_REASON);
  const reasons = [...byReason.keys()].sort((a, b) => last(a) - last(b) || a.localeCompare(b));
  for (const reason of reasons) {
    const names = byReason.get(reason).sort();
    lines.push(`  ${reason}:`, ...names.map((name) => `    ${name}`));
  }
  return lines;
}

function failedTestLines(repoDir, packages) {
  const failed = [];
  for (const { report } of packages) {
    for (const file of report?.testResults ?? []) {
      const tests = (file.assertionResults ?? []).filter((test) => test.status === 'failed');
      for (const test of tests) {
        failed.push([testName(repoDir, file, test), firstLine(test.failureMessages?.[0])]);
      }
      // A file that failed outside its tests (an import error, a hook that threw).
      if (file.status === 'failed' && tests.length === 0) {
        const message = firstLine(file.message) || 'failed outside its tests: see its output above';
        failed.push([relative(repoDir, file.name), message]);
      }
    }
  }
  if (failed.length === 0) return [];
  failed.sort(([a], [b]) => a.localeCompare(b));
  const shown = failed.slice(0, SHOWN_FAILURES).flatMap(([name, message]) => [`  ${name}`, `    ${message}`]);
  const more = failed.length - SHOWN_FAILURES;
  return ['failed tests:', ...shown, ...(more > 0 ? [`  ... and ${more} more`] : [])];
}

/**
 * The closing lines. `failures` are the runner's own findings, one line each (a step that
 * failed, a turbo task that failed or did not run, the home check).
 */
export function summarize(repoDir, packages, failures = []) {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  // Counted from the tests themselves: vitest's numFailedTestSuites also counts every suite
  // around a failed test. A file that failed with no failed test (it did not load, a hook
  // threw) counts once.
  for (const { report } of packages) {
    for (const file of report?.testResults ?? []) {
      const statuses = (file.assertionResults ?? []).map((test) => test.status);
      passed += statuses.filter((status) => status === 'passed').length;
      skipped += statuses.filter((status) => SKIPPED.has(status)).length;
      const failedTests = statuses.filter((status) => status === 'failed').length;
      failed += failedTests > 0 ? failedTests : Number(file.status === 'failed');
    }
  }
  const withoutReport = packages.filter((p) => p.report === undefined).map((p) => p.dir);
  failed += withoutReport.length;
  const problems = [...failures];
  if (withoutReport.length > 0) problems.push(`no test report from: ${withoutReport.join(', ')}`);
  if (passed === 0 && problems.length === 0) problems.push('no test passed');
  const lines = [...skippedLines(repoDir, packages), ...failedTestLines(repoDir, packages)];
  if (problems.length > 0) lines.push('failed:', ...problems.map((problem) => `  ${problem}`));
  lines.push(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
  return { lines, ok: failed === 0 && problems.length === 0 };
}
