// Seed 001, full-chunked: answers are read with the final-report parser, so a wrapper the
// model writes inside its leading <think> block is never taken for the answer.
import { describe, expect, test } from 'vitest';
import { ToolOutputSession } from '../src/hook.js';
import { resolveOptions } from '../src/options.js';
import { recordingContext, scriptedTarget, tempDir, wrapped } from './helpers.js';

describe('extraction answers', () => {
  test('a wrapper inside a leading <think> block is reasoning; the one after it is the answer', async () => {
    const { client, target } = scriptedTarget([
      {
        text: `<think>I could write ${wrapped('a draft answer')} but let me check.</think>\n${wrapped('The total is 42.')}`,
      },
    ]);
    const session = new ToolOutputSession(
      recordingContext({ targets: [target] }),
      resolveOptions({ storeDir: tempDir() }),
    );
    const text = `${'{"k":1},'.repeat(2000)}{"total":42}`;
    const decision = await session.size(
      {
        toolName: 'fetch',
        callId: 'c1',
        argumentsJson: '{}',
        text,
        bytes: Buffer.byteLength(text),
        overSizeCap: true,
        estimatedTokens: Math.ceil(text.length / 4),
        remainingTokens: 1_000_000,
      },
      new AbortController().signal,
    );
    expect(decision.action).toBe('replace');
    const handle = decision.action === 'replace' ? String(decision.details.handle) : '';
    const result = await session
      .tools()!
      .provider.execute(
        { name: 'tool_output', arguments: { handle, extract: 'the total' }, callId: 'x' },
        { signal: new AbortController().signal },
      );
    expect(result.ok && result.text).toBe(
      `ABSTRACT FROM TOOL OUTPUT fetch WITH HANDLE ${handle}, STRATEGY:full-chunked:\n\nThe total is 42.`,
    );
    expect(client.calls).toBe(1);
    await session.dispose();
  });
});
