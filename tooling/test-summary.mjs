// Prints one closing line for the whole workspace, `tests: N passed, N failed`, from the
// JSON reports every package's vitest run writes to test-results/vitest.json.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

let passed = 0;
let failed = 0;
let skipped = 0;
const packagesWithoutReport = [];
for (const group of ['packages', 'apps']) {
  if (!existsSync(group)) continue;
  for (const name of readdirSync(group)) {
    const dir = join(group, name);
    if (!existsSync(join(dir, 'vitest.config.ts'))) continue;
    const file = join(dir, 'test-results', 'vitest.json');
    if (!existsSync(file)) {
      packagesWithoutReport.push(dir);
      continue;
    }
    const report = JSON.parse(readFileSync(file, 'utf8'));
    passed += report.numPassedTests ?? 0;
    failed += (report.numFailedTests ?? 0) + (report.numFailedTestSuites ?? 0);
    skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  }
}
if (packagesWithoutReport.length > 0) {
  console.error(`no test report from: ${packagesWithoutReport.join(', ')}`);
  failed += packagesWithoutReport.length;
}
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
