import { readdirSync } from 'node:fs';
import type { SavedToolOutput } from '@agent/protocol';
import { expect, test } from 'vitest';
import { MAX_SAVED_OUTPUT_BYTES } from '../src/carry.js';
import type { ToolOutputSession } from '../src/hook.js';
import { createToolOutputHook } from '../src/index.js';
import { recordingContext, tempDir } from './helpers.js';

// Issue 16: a session's stored outputs travel in its snapshot and come back under the same
// handles in the resumed session's store.
const output = (toolName: string) => ({ toolName, argumentsJson: '{}', lines: 1, tokens: 5 });

function session(storeDir: string, sessionId: string) {
  const context = recordingContext({ sessionId });
  const hook = createToolOutputHook({ storeDir })(context) as ToolOutputSession;
  return { hook, context };
}

test('saved outputs come back under the same handles in a new store; the old store can be gone', async () => {
  const parent = tempDir();
  const first = session(parent, 's-1');
  const a = await first.hook.store.put({ ...output('fetch'), bytes: 7 }, 'alpha\nA');
  const b = await first.hook.store.put({ ...output('export'), bytes: 4 }, 'beta');
  const saved = JSON.parse(JSON.stringify(await first.hook.saveOutputs())) as SavedToolOutput[];
  expect(saved.map((s) => [s.handle, s.toolName, s.text])).toEqual([
    [a.handle, 'fetch', 'alpha\nA'],
    [b.handle, 'export', 'beta'],
  ]);
  await first.hook.dispose();
  expect(readdirSync(parent).filter((n) => n.startsWith('ai-agent-'))).toEqual([]);

  const resumed = session(parent, 's-1');
  await resumed.hook.restoreOutputs(saved);
  const record = resumed.hook.store.lookup(a.handle)!;
  expect(record).toMatchObject({ toolName: 'fetch', bytes: 7, lines: 2, tokens: 5 });
  expect(await resumed.hook.store.read(record)).toBe('alpha\nA');
  expect(resumed.hook.tools()?.definitions.map((d) => d.name)).toEqual(['tool_output']);
  expect(resumed.context.logs.at(-1)?.message).toBe('restored 2 stored outputs from the snapshot');
  await resumed.hook.dispose();
});

test('a saved output with a handle this store never issues, or a broken entry, is skipped and said', async () => {
  const { hook, context } = session(tempDir(), 's-2');
  const good = {
    handle: '2b1c5d0e-1f2a-4b3c-8d4e-5f6a7b8c9d0e',
    toolName: 't',
    argumentsJson: '{}',
    tokens: 1,
    createdAt: 1,
    text: 'ok',
  };
  await hook.restoreOutputs([
    good,
    { ...good, handle: '../../etc/passwd' },
    { ...good, handle: '3b1c5d0e-1f2a-4b3c-8d4e-5f6a7b8c9d0e', text: 42 } as never,
    good,
  ]);
  expect(hook.store.handles.size).toBe(1);
  expect(hook.store.lookup('../../etc/passwd')).toBeUndefined();
  expect(context.logs.at(-1)).toMatchObject({
    severity: 'WRN',
    message: 'restored 1 stored output from the snapshot; 3 could not be restored',
  });
  await hook.dispose();
});

test('the snapshot carries at most MAX_SAVED_OUTPUT_BYTES, the newest kept; a line says what was left out', async () => {
  const { hook, context } = session(tempDir(), 's-3');
  const half = 'x'.repeat(MAX_SAVED_OUTPUT_BYTES / 2 - 10);
  const old = await hook.store.put({ ...output('old'), bytes: half.length }, half);
  await hook.store.put({ ...output('mid'), bytes: half.length }, half);
  await hook.store.put({ ...output('new'), bytes: half.length }, half);
  const saved = await hook.saveOutputs();
  expect(saved.map((s) => s.toolName)).toEqual(['mid', 'new']);
  expect(saved.some((s) => s.handle === old.handle)).toBe(false);
  expect(context.logs.at(-1)).toMatchObject({ severity: 'WRN' });
  expect(context.logs.at(-1)?.message).toContain('1 stored output is left out of the snapshot');
  await hook.dispose();
});
