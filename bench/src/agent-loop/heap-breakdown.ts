// Where a held session's heap goes, by constructor: K sessions of one contender held in flight on
// their final request by the real model server (as in the suite's memory phase), a heap snapshot
// before and one during (each after forced GC), self sizes compared per session. The suite runs it
// for agent-core and the raw loop when the heap target is missed (its why), each in a fresh process.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeHeapSnapshot } from 'node:v8';
import { type ConstructorGrowth, growthByConstructor } from '../core-inprocess/heap-sizes.js';
import { serveJsonChild, spawnJsonChild } from '../harness/json-child.js';
import { formatNumber } from '../harness/measure.js';
import type { BenchTable } from '../harness/types.js';
import { contenderById } from './contenders/index.js';
import { FINAL_ANSWER, promptFor } from './script.js';
import { startServerProcess } from './server-launcher.js';

export interface HeapBreakdown {
  contender: string;
  held: number;
  answered: number;
  /** Growth per held session by constructor, largest first (the first 80). */
  rows: ConstructorGrowth[];
  totalBytes: number;
}

/** Snapshots `count` held sessions of `contenderId` (one tool turn each) in this process. */
export async function heldSessionHeap(
  contenderId: string,
  count: number,
  dir: string,
): Promise<HeapBreakdown> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('heap breakdown: run with --expose-gc');
  const turns = 1;
  const server = await startServerProcess();
  try {
    const runSession = await (await contenderById(contenderId).load())(server.baseURL);
    for (let i = 0; i < 20; i++) await runSession(promptFor({ turns }), turns);
    gc();
    const before = writeHeapSnapshot(join(dir, `${contenderId}-before.heapsnapshot`));
    const phase = `heap-${process.pid}`;
    const held = server.waitHeld(phase);
    const prompt = promptFor({ turns, hold: { phase, count } });
    const sessions = Array.from({ length: count }, () => runSession(prompt, turns));
    await held;
    gc();
    gc();
    const during = writeHeapSnapshot(join(dir, `${contenderId}-during.heapsnapshot`));
    const rows = growthByConstructor(before, during, count);
    server.release(phase);
    const outcomes = await Promise.race([
      Promise.all(sessions),
      new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 30_000).unref()),
    ]);
    return {
      contender: contenderId,
      held: count,
      answered: outcomes?.filter((outcome) => outcome.finalText === FINAL_ANSWER).length ?? 0,
      rows: rows.slice(0, 80),
      totalBytes: rows.reduce((sum, row) => sum + row.bytes, 0),
    };
  } finally {
    await server.close();
  }
}

const CHILD_FLAG = '--heap-breakdown';
const SELF = fileURLToPath(import.meta.url);

/** `heldSessionHeap` in a fresh process (its snapshots in a temp directory, removed after). */
export async function heapBreakdownOf(contenderId: string, count: number): Promise<HeapBreakdown> {
  const dir = mkdtempSync(join(tmpdir(), 'agent-loop-heap-'));
  try {
    return await spawnJsonChild<HeapBreakdown>(
      SELF,
      [CHILD_FLAG, String(count), contenderId, dir],
      `heap breakdown of ${contenderId}`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

serveJsonChild(CHILD_FLAG, (count) => {
  const [contenderId = '', dir = '.'] = process.argv.slice(process.argv.indexOf(CHILD_FLAG) + 2);
  return heldSessionHeap(contenderId, count, dir);
});

const TOP_ROWS = 12;

/** What `core` holds per session beyond `base`, by constructor, largest differences first. */
function differences(core: HeapBreakdown, base: HeapBreakdown) {
  const baseBytes = new Map(base.rows.map((row) => [row.name, row.bytes]));
  const names = new Set([...core.rows.map((row) => row.name), ...base.rows.map((row) => row.name)]);
  const coreBytes = new Map(core.rows.map((row) => [row.name, row.bytes]));
  return [...names]
    .map((name) => ({ name, core: coreBytes.get(name) ?? 0, base: baseBytes.get(name) ?? 0 }))
    .map((row) => ({ ...row, extra: row.core - row.base }))
    .sort((a, b) => b.extra - a.extra);
}

export function heapBreakdownTable(core: HeapBreakdown, base: HeapBreakdown): BenchTable {
  const rows = differences(core, base).slice(0, TOP_ROWS);
  return {
    caption: `Heap per held session by constructor, bytes (self sizes in heap snapshots, ${core.held} sessions of each held in flight on their final request, after forced GC; ${core.contender} beside ${base.contender}, largest differences first)`,
    columns: ['constructor', core.contender, base.contender, 'difference'],
    rows: [
      ...rows.map((row) => [
        `\`${row.name}\``,
        formatNumber(row.core, 0),
        formatNumber(row.base, 0),
        formatNumber(row.extra, 0),
      ]),
      [
        'total',
        formatNumber(core.totalBytes, 0),
        formatNumber(base.totalBytes, 0),
        formatNumber(core.totalBytes - base.totalBytes, 0),
      ],
    ],
  };
}

/** One line for the heap target's why. */
export function heapBreakdownLine(core: HeapBreakdown, base: HeapBreakdown): string {
  const top = differences(core, base)
    .slice(0, 5)
    .map((row) => `${row.name} +${formatNumber(row.extra / 1024, 1)} KB`)
    .join(', ');
  return `heap snapshots of ${core.held} held sessions each (table "Heap per held session by constructor" in this section): ${formatNumber(core.totalBytes / 1024, 1)} KB per session against ${formatNumber(base.totalBytes / 1024, 1)}; most of the difference: ${top}`;
}
