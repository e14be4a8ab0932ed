import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { StoredOutput } from '../src/handles.js';
import { ToolOutputStore } from '../src/store.js';
import { storeReadGrepTools } from '../src/store-read-grep.js';
import { tempDir } from './helpers.js';

// The read-grep child's Grep runs inside the agent process with a pattern the model wrote: a
// pattern that takes a backtracking engine exponential time must not stall the process.
describe('the built-in Grep with a hostile pattern', () => {
  let store: ToolOutputStore;
  let record: StoredOutput;
  // A store per test: the helpers remove every temp directory after each test.
  beforeEach(async () => {
    store = new ToolOutputStore({ sessionId: 'grep-hostile', storeDir: tempDir() });
    // 29 `a`s then `!`: a backtracking engine tries ~2^29 ways (seconds) before saying no.
    const text = `aaaa\n${'a'.repeat(29)}!\nAAAA\nERROR one\nerror two\n`;
    record = await store.put(
      { toolName: 't', argumentsJson: '{}', bytes: text.length, lines: 5, tokens: 9 },
      text,
    );
  });
  afterEach(() => store.dispose());

  async function grep(args: Record<string, unknown>): Promise<string> {
    const result = await storeReadGrepTools(store).execute(
      { name: 'Grep', arguments: { path: record.handle, ...args }, callId: 'g' },
      { signal: new AbortController().signal },
    );
    return result.ok ? result.text : `error ${result.error.kind}: ${result.error.message}`;
  }

  test('answers ^(a+)+$ against a line of a...a! at once', async () => {
    const started = performance.now();
    const text = await grep({ pattern: '^(a+)+$' });
    const elapsed = performance.now() - started;
    expect(text).toBe(`${record.handle}:1:aaaa`);
    // Loose bound for a loaded machine: the backtracking engine needs seconds here.
    expect(elapsed).toBeLessThan(1_000);
  }, 120_000);

  test('keeps ignoreCase and per-line anchors', async () => {
    expect(await grep({ pattern: '^(a+)+$', ignoreCase: true })).toBe(
      `${record.handle}:1:aaaa\n${record.handle}:3:AAAA`,
    );
    expect(await grep({ pattern: '^error' })).toBe(`${record.handle}:5:error two`);
    expect(await grep({ pattern: '^error', ignoreCase: true })).toBe(
      `${record.handle}:4:ERROR one\n${record.handle}:5:error two`,
    );
  });

  test('refuses a backreference or a lookaround with what is allowed', async () => {
    const back = await grep({ pattern: '(a)\\1' });
    expect(back).toMatch(/^error invalid_arguments: .*"\(a\)\\\\1" uses a backreference \(\\1\).*RE2/);
    expect(back).toContain('lookaround');
    expect(await grep({ pattern: '(?<!x)a' })).toMatch(/uses a negative lookbehind.*RE2/);
  });
});
