import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { takeBenchLock } from '../src/harness/bench-lock.js';
import { renderReport, type StoredResult } from '../src/harness/report.js';
import { formatRatio, lowerBoundVerdict, upperBoundVerdict } from '../src/harness/targets.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'bench-targets-'));
  dirs.push(dir);
  return dir;
}

test('a verdict is met only when the spread is within the bound, missed only when it is all outside', () => {
  expect(upperBoundVerdict({ median: 1.05, min: 1.0, max: 1.09 }, 1.1)).toBe('met');
  expect(upperBoundVerdict({ median: 1.05, min: 1.0, max: 1.2 }, 1.1)).toBe('noise');
  expect(upperBoundVerdict({ median: 1.15, min: 1.05, max: 1.2 }, 1.1)).toBe('noise');
  expect(upperBoundVerdict({ median: 1.15, min: 1.12, max: 1.2 }, 1.1)).toBe('missed');
  expect(lowerBoundVerdict({ median: 0.95, min: 0.91, max: 0.99 }, 0.9)).toBe('met');
  expect(lowerBoundVerdict({ median: 0.85, min: 0.8, max: 0.89 }, 0.9)).toBe('missed');
  expect(formatRatio({ median: 1.071, min: 0.98, max: 1.214 })).toBe('1.07x (0.98-1.21)');
});

test('the report opens with every suite target, in suite order', () => {
  const dir = tempDir();
  const stored = (id: string, target: string): StoredResult => ({
    id,
    title: id,
    description: `${id} suite`,
    date: '2026-11-29',
    machine: { cpu: 'cpu', cores: 2, memoryGiB: 24, node: 'v20', platform: 'linux' },
    result: {
      tables: [],
      raw: {},
      targets: [
        { target, limit: '<= 1.10x', measured: '1.20x (1.15-1.30)', verdict: 'missed', why: 'see profile' },
      ],
    },
  });
  writeFileSync(join(dir, 'b.json'), JSON.stringify(stored('b', 'second')));
  writeFileSync(join(dir, 'a.json'), JSON.stringify(stored('a', 'first')));
  const report = renderReport(dir, ['a', 'b']);
  const table = report.slice(report.indexOf('## Targets'), report.indexOf('## a'));
  expect(
    table.indexOf('| `a` (2026-11-29) | first | <= 1.10x | 1.20x (1.15-1.30) | missed | see profile |'),
  ).toBeGreaterThan(0);
  expect(table.indexOf('second')).toBeGreaterThan(table.indexOf('first'));
});

test('one bench run per machine: a live owner keeps the lock, a dead one loses it', () => {
  const file = join(tempDir(), 'bench.lock');
  const release = takeBenchLock(file);
  expect(readFileSync(file, 'utf8')).toBe(String(process.pid));
  expect(() => takeBenchLock(file)).toThrow(/another bench run \(pid \d+\) holds/);
  release();
  writeFileSync(file, '999999999');
  const again = takeBenchLock(file);
  expect(readFileSync(file, 'utf8')).toBe(String(process.pid));
  again();
});
