import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test, vi } from 'vitest';
import { memoryTools } from '../helpers/memory-tools.js';
import { runScenario, xmlReport } from '../helpers/scenario.js';

// The core does no file I/O of its own (seed 002, "Library Guarantees"): `@agent/tool-output`,
// which writes the store, is loaded only when a session asks for a store. The mock passes the
// real module through and counts how often it is loaded.
const loads = vi.hoisted(() => ({ count: 0 }));
vi.mock('@agent/tool-output', async (importOriginal) => {
  loads.count++;
  return importOriginal();
});

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

test('loading @agent/core loads no @agent/tool-output; the first session that asks for a store does', async () => {
  await import('../../src/index.js');
  const tools = memoryTools('db', { dump: () => 'small' });
  const step = [{ toolCalls: [{ id: 'd', name: 'dump', arguments: {} }] }, { text: xmlReport('ok') }];
  await runScenario({ tools: [tools], scripts: [step] });
  expect(loads.count).toBe(0);
  const storeDir = mkdtempSync(join(tmpdir(), 'core-lazy-'));
  made.push(storeDir);
  const run = await runScenario({ tools: [tools], toolOutput: { storeDir }, scripts: [step] });
  expect(run.result.success).toBe(true);
  expect(loads.count).toBe(1);
});
