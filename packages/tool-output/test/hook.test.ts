import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '@agent/protocol';
import { describe, expect, test } from 'vitest';
import { createToolOutputHook } from '../src/index.js';
import { recordingContext, tempDir } from './helpers.js';

const signal = new AbortController().signal;

function request(text: string, overrides: Record<string, unknown> = {}) {
  return {
    toolName: 'search',
    callId: 'call-7',
    argumentsJson: '{"q":"crash"}',
    text,
    bytes: Buffer.byteLength(text),
    overSizeCap: true,
    estimatedTokens: Math.ceil(text.length / 4),
    remainingTokens: 50_000,
    ...overrides,
  };
}

const big = 'result line\n'.repeat(3000);

describe('the oversize decision', () => {
  test('size_cap: stored behind a UUID handle; the model gets the exact handle message; a WRN log says why', async () => {
    const context = recordingContext();
    const hook = createToolOutputHook({ storeDir: tempDir() })(context);
    expect(hook.tools()).toBeUndefined();
    const decision = await hook.size(request(big), signal);
    expect(decision.action).toBe('replace');
    if (decision.action !== 'replace') return;
    const handle = String(decision.details.handle);
    expect(decision.text).toBe(
      `Tool output is too large (36000 bytes, 3000 lines, 9000 tokens).\nCall tool_output(handle = "${handle}", extract = "what to extract").\nProvide precise and detailed instructions in \`extract\` about what you are looking for.`,
    );
    expect(decision.details).toMatchObject({
      handle,
      reason: 'size_cap',
      bytes: 36000,
      lines: 3000,
      tokens: 9000,
    });
    const warning = context.logs.find((l) => l.severity === 'WRN');
    expect(warning).toMatchObject({
      direction: 'response',
      type: 'tool',
      remoteIdentifier: 'agent:tool-output:search',
      details: { handle, reason: 'size_cap', bytes: 36000, lines: 3000, tokens: 9000 },
    });
    const listed = hook.tools();
    expect(listed?.definitions.map((d) => d.name)).toEqual(['tool_output']);
    expect((await listed!.provider.listTools()).map((d) => d.name)).toEqual(['tool_output']);
    await hook.dispose();
  });

  test('token_budget: within the byte cap but over the context left', async () => {
    const hook = createToolOutputHook({ storeDir: tempDir() })(recordingContext());
    const decision = await hook.size(request(big, { overSizeCap: false, remainingTokens: 5000 }), signal);
    expect(decision.action === 'replace' && decision.details.reason).toBe('token_budget');
    await hook.dispose();
  });

  test('reserve_failed: the handle message itself would not fit, so nothing is stored and the guard decides', async () => {
    const parent = tempDir();
    const context = recordingContext();
    const hook = createToolOutputHook({ storeDir: parent })(context);
    const decision = await hook.size(request(big, { remainingTokens: 20 }), signal);
    expect(decision).toEqual({ action: 'keep' });
    expect(readdirSync(parent)).toEqual([]);
    expect(context.logs.at(-1)).toMatchObject({
      severity: 'WRN',
      details: { handle: 'none', reason: 'reserve_failed', bytes: 36000, lines: 3000, tokens: 9000 },
    });
    expect(hook.tools()).toBeUndefined();
    await hook.dispose();
  });

  test('reserve_failed: the store cannot be written, so a truncated view with a WARNING replaces the output', async () => {
    const parent = tempDir();
    const notADirectory = join(parent, 'file');
    writeFileSync(notADirectory, 'x');
    const context = recordingContext();
    const hook = createToolOutputHook({ storeDir: notADirectory, truncateBytes: 2000 })(context);
    const decision = await hook.size(request(big), signal);
    expect(decision.action).toBe('replace');
    if (decision.action !== 'replace') return;
    expect(decision.details).toMatchObject({ handle: 'none', reason: 'reserve_failed', wanted: 'size_cap' });
    expect(decision.text).toMatch(
      /^WARNING: TRUNCATED OUTPUT\. The output \(36000 bytes\) was too large and could not be stored/,
    );
    expect(decision.text.length).toBeLessThan(2600);
    expect(hook.tools()).toBeUndefined();
    await hook.dispose();
  });

  test('tool_output answers are never stored again', async () => {
    const hook = createToolOutputHook({ storeDir: tempDir() })(recordingContext());
    expect(await hook.size(request(big, { toolName: 'tool_output' }), signal)).toEqual({ action: 'keep' });
    await hook.dispose();
  });

  test('enabled: false keeps every result', async () => {
    const parent = tempDir();
    const hook = createToolOutputHook({ enabled: false, storeDir: parent })(recordingContext());
    expect(await hook.size(request(big), signal)).toEqual({ action: 'keep' });
    expect(hook.tools()).toBeUndefined();
    expect(readdirSync(parent)).toEqual([]);
  });

  test('settings that cannot work are refused with every problem named', () => {
    let thrown: unknown;
    try {
      createToolOutputHook({ maxChunks: 0, overlapPercent: 80, storeDir: '' });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    const error = thrown as ConfigError;
    expect(error).toMatchObject({ code: 'configuration', field: 'toolOutput.storeDir', value: '' });
    expect(error.problems.map((p) => [p.field, p.value, p.allowed])).toEqual([
      ['toolOutput.storeDir', '', 'a non-empty directory path'],
      ['toolOutput.maxChunks', 0, 'a positive integer'],
      ['toolOutput.overlapPercent', 80, 'a number from 0 to 50'],
    ]);
    expect(() => createToolOutputHook({ maxChunks: 0, overlapPercent: 80 })).toThrow(
      /maxChunks must be a positive integer, got 0; toolOutput.overlapPercent must be a number from 0 to 50, got 80/,
    );
  });
});
