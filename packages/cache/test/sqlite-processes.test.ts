import { execFile } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';
import { createCache, openSqliteBackend } from '../src/index.js';
import { tempDir } from './helpers.js';

const run = promisify(execFile);
const worker = fileURLToPath(new URL('./fixtures/sqlite-worker.ts', import.meta.url));
const packageDir = fileURLToPath(new URL('..', import.meta.url));

interface WorkerReport {
  id: string;
  ownRead: number;
  othersSeen: number;
  size: number;
  errors: string[];
}

async function worker_(path: string, id: string, count: number, maxEntries: number): Promise<WorkerReport> {
  const { stdout } = await run(
    process.execPath,
    ['--conditions=@agent/source', '--import', 'tsx', worker, path, id, String(count), String(maxEntries)],
    { cwd: packageDir, timeout: 120_000 },
  );
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as WorkerReport;
}

test('two processes write and read one SQLite file at the same time: no lost writes, no lock errors', async () => {
  const path = join(tempDir(), 'shared', 'cache.sqlite');
  const [a, b] = await Promise.all([worker_(path, 'a', 300, 10_000), worker_(path, 'b', 300, 10_000)]);
  for (const report of [a, b]) {
    expect(report.errors).toEqual([]);
    expect(report.ownRead).toBe(300);
  }
  // Each saw at least some of the other's entries while both ran (or after the other finished).
  expect(a.othersSeen + b.othersSeen).toBeGreaterThan(0);
  // This process sees all 600, written by the two others.
  const cache = createCache(await openSqliteBackend({ path, maxEntries: 10_000 }));
  try {
    expect(await cache.size()).toBe(600);
    expect((await cache.get('a-299'))?.value).toEqual({ worker: 'a', i: 299, text: 'entry 299 of worker a' });
    expect((await cache.get('b-0'))?.value).toEqual({ worker: 'b', i: 0, text: 'entry 0 of worker b' });
  } finally {
    await cache.close();
  }
  // Only this user may read the answers it holds.
  expect(statSync(path).mode & 0o777).toBe(0o600);
}, 180_000);

test('two processes writing at once keep the entry bound between them', async () => {
  const path = join(tempDir(), 'cache.sqlite');
  const [a, b] = await Promise.all([worker_(path, 'a', 200, 50), worker_(path, 'b', 200, 50)]);
  expect([...a.errors, ...b.errors]).toEqual([]);
  // (An entry may be evicted by the other process between a write and its read-back: no count here.)
  const cache = createCache(await openSqliteBackend({ path, maxEntries: 50 }));
  try {
    expect(await cache.size()).toBe(50);
    // The most recent entries survive: the last one written (by whichever finished last) is there.
    const last = [await cache.get('a-199'), await cache.get('b-199')].filter((hit) => hit !== undefined);
    expect(last.length).toBeGreaterThan(0);
    expect(await cache.get('a-0')).toBeUndefined();
    expect(await cache.get('b-0')).toBeUndefined();
  } finally {
    await cache.close();
  }
}, 180_000);
