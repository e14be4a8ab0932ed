// `pnpm bench [--quick] [--only id,id]`: runs the suites, stores raw JSON per suite under
// bench/results/ and rewrites docs/benchmarks.md. `--quick` is the CI smoke run: small
// sizes, checks only, nothing written.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, platform, release, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { waitForBenchLock } from './harness/bench-lock.js';
import { type MachineInfo, renderReport, type StoredResult } from './harness/report.js';
import { suites } from './suites/index.js';

const { values } = parseArgs({
  options: { quick: { type: 'boolean', default: false }, only: { type: 'string' } },
});
const quick = values.quick ?? false;
const only = values.only?.split(',').map((id) => id.trim());
const benchDir = dirname(dirname(fileURLToPath(import.meta.url)));
const resultsDir = join(benchDir, 'results');
const docsFile = join(benchDir, '..', 'docs', 'benchmarks.md');

const machine: MachineInfo = {
  cpu: cpus()[0]?.model.trim() ?? 'unknown CPU',
  cores: cpus().length,
  memoryGiB: Math.round(totalmem() / 2 ** 30),
  node: process.version,
  platform: `${platform()} ${release()}`,
};

const selected = suites.filter((suite) => !only || only.includes(suite.id));
if (only) {
  const unknown = only.filter((id) => !suites.some((suite) => suite.id === id));
  if (unknown.length > 0) {
    console.error(`unknown suite(s): ${unknown.join(', ')}; known: ${suites.map((s) => s.id).join(', ')}`);
    process.exit(2);
  }
}

// Full runs measure: one at a time per machine. A quick run only checks, so it takes no lock.
const releaseLock = quick ? () => {} : await waitForBenchLock();
process.once('exit', releaseLock);

let failed = 0;
for (const suite of selected) {
  const started = Date.now();
  const loadAtStart = loadavg()[0] ?? 0;
  console.log(`bench ${suite.id}${quick ? ' (quick)' : ''}: ${suite.title}`);
  const result = await suite.run({ quick });
  for (const check of result.checks ?? []) {
    console.log(`  ${check.ok ? 'ok  ' : 'FAIL'} ${check.name}${check.detail ? `: ${check.detail}` : ''}`);
    if (!check.ok) failed++;
  }
  for (const table of result.tables) {
    console.log(`  ${table.caption}`);
    for (const row of table.rows) console.log(`    ${row.join(' | ')}`);
  }
  console.log(`  done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (!quick) {
    mkdirSync(resultsDir, { recursive: true });
    const stored: StoredResult = {
      id: suite.id,
      title: suite.title,
      description: suite.description,
      date: new Date().toISOString().slice(0, 10),
      machine,
      load: { start: loadAtStart, end: loadavg()[0] ?? 0 },
      seconds: (Date.now() - started) / 1000,
      result,
    };
    writeFileSync(join(resultsDir, `${suite.id}.json`), `${JSON.stringify(stored, null, 2)}\n`);
  }
}

if (!quick) {
  writeFileSync(
    docsFile,
    renderReport(
      resultsDir,
      suites.map((s) => s.id),
    ),
  );
  console.log(`wrote ${docsFile}`);
}
if (failed > 0) {
  console.error(`${failed} benchmark check(s) failed`);
  process.exit(1);
}
