// Seed 001, decisions 2 and 13: no TTL and no caps; every output stays until the session ends.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { createToolOutputHook } from '../src/index.js';
import { recordingContext, tempDir } from './helpers.js';

const signal = new AbortController().signal;

describe('the store keeps every output until the session ends', () => {
  test('40 outputs in one session: 40 handles, none evicted, the first still readable after the last', async () => {
    const parent = tempDir();
    const hook = createToolOutputHook({ storeDir: parent })(recordingContext());
    const handles: string[] = [];
    for (let i = 0; i < 40; i++) {
      const text = `output ${i}\n${'x'.repeat(20_000)}\nEND ${i}\n`;
      const decision = await hook.size(
        {
          toolName: 'dump',
          callId: `c${i}`,
          argumentsJson: `{"i":${i}}`,
          text,
          bytes: Buffer.byteLength(text),
          overSizeCap: true,
          estimatedTokens: Math.ceil(text.length / 4),
          remainingTokens: 1_000_000,
        },
        signal,
      );
      expect(decision.action).toBe('replace');
      if (decision.action === 'replace') handles.push(String(decision.details.handle));
    }
    expect(new Set(handles).size).toBe(40);
    const [sessionDir] = readdirSync(parent);
    const files = readdirSync(join(parent, sessionDir!)).filter((name) => !name.startsWith('.'));
    expect(files.sort()).toEqual([...handles].sort());
    const first = await hook.tools()!.provider.execute(
      {
        name: 'tool_output',
        arguments: { handle: handles[0], extract: 'the END line', mode: 'truncate' },
        callId: 'r',
      },
      { signal },
    );
    expect(first.ok && first.text).toContain('END 0');
    await hook.dispose();
    expect(readdirSync(parent)).toEqual([]);
  });
});
