import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RecordedRequest } from '@agent/testkit';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { memoryTools } from '../helpers/memory-tools.js';
import { runScenario, toolEntries, xmlReport } from '../helpers/scenario.js';
import { toolResult } from '../helpers/tool-output.js';

// Seed 002, "Tool Response Size Cap": `toolResponseMaxBytes` alone (no `toolOutput`) stores an
// oversized result and hands the model a `tool_output` handle, in the OS temp dir, as the
// runtime does by default. The temp dir is pointed at a fresh folder (TMPDIR, which
// `os.tmpdir()` reads), so the test sees exactly what the session wrote there.

const HANDLE_MESSAGE =
  /^Tool output is too large \((\d+) bytes, (\d+) lines, (\d+) tokens\)\.\nCall tool_output\(handle = "([0-9a-f-]{36})"/;

let temp: string;
beforeEach(() => {
  temp = mkdtempSync(join(tmpdir(), 'core-response-cap-'));
  vi.stubEnv('TMPDIR', temp);
});
afterEach(() => {
  vi.unstubAllEnvs();
  rmSync(temp, { recursive: true, force: true });
});

const big = `${Array.from({ length: 40 }, (_, i) => `line ${i}: ${'x'.repeat(40)}`).join('\n')}\n`;

describe('toolResponseMaxBytes without a toolOutput setting', () => {
  test('an oversized result is stored in the OS temp dir and replaced by the tool_output handle', async () => {
    expect(tmpdir()).toBe(temp);
    const tools = memoryTools('db', { dump: () => big });
    let storedDuringRun: string[] = [];
    const run = await runScenario({
      sessionId: 'cap-session',
      tools: [tools],
      toolResponseMaxBytes: 512,
      scripts: [
        [
          { toolCalls: [{ id: 'd', name: 'dump', arguments: {} }] },
          (r: RecordedRequest) => {
            storedDuringRun = readdirSync(join(temp, 'ai-agent-cap-session'));
            expect(r.tools.map((t) => t.name)).toContain('tool_output');
            return { text: xmlReport('seen the handle') };
          },
        ],
      ],
    });
    expect(run.result.success).toBe(true);
    const text = toolResult(run.result.conversation, 'd');
    const match = HANDLE_MESSAGE.exec(text);
    expect(match, text).not.toBeNull();
    expect(Number(match![1])).toBe(Buffer.byteLength(big));
    // The output was stored under its handle while the session ran (beside the store's owner file)...
    expect(storedDuringRun.filter((name) => !name.startsWith('.'))).toEqual([match![4]]);
    // ...and the store was released when the session ended.
    expect(existsSync(join(temp, 'ai-agent-cap-session'))).toBe(false);
    // The accounting counts the handle message, not the output (seed 002).
    expect(toolEntries(run.result)[0]).toMatchObject({ command: 'dump', charactersOut: text.length });
    // The WRN the seed asks for: handle, reason size_cap.
    const warning = run.result.logs.find((l) => l.remoteIdentifier === 'agent:tool-output:dump');
    expect(warning).toMatchObject({ severity: 'WRN', details: { handle: match![4], reason: 'size_cap' } });
  });

  test('a result under the cap is kept whole and nothing is stored', async () => {
    const tools = memoryTools('db', { dump: () => 'small' });
    const run = await runScenario({
      tools: [tools],
      toolResponseMaxBytes: 512,
      scripts: [[{ toolCalls: [{ id: 'd', name: 'dump', arguments: {} }] }, { text: xmlReport('ok') }]],
    });
    expect(toolResult(run.result.conversation, 'd')).toBe('small');
    expect(readdirSync(temp)).toEqual([]);
  });

  test('without toolResponseMaxBytes or toolOutput the core stores nothing (no I/O): the result is kept whole', async () => {
    const tools = memoryTools('db', { dump: () => 'y'.repeat(20_000) });
    const run = await runScenario({
      tools: [tools],
      scripts: [[{ toolCalls: [{ id: 'd', name: 'dump', arguments: {} }] }, { text: xmlReport('ok') }]],
    });
    expect(toolResult(run.result.conversation, 'd')).toHaveLength(20_000);
    expect(readdirSync(temp)).toEqual([]);
  });

  test('toolOutput { enabled: false } still turns the store off', async () => {
    const tools = memoryTools('db', { dump: () => big });
    const run = await runScenario({
      tools: [tools],
      toolResponseMaxBytes: 512,
      toolOutput: { enabled: false },
      scripts: [[{ toolCalls: [{ id: 'd', name: 'dump', arguments: {} }] }, { text: xmlReport('ok') }]],
    });
    expect(toolResult(run.result.conversation, 'd')).toBe(big);
    expect(readdirSync(temp)).toEqual([]);
  });
});
