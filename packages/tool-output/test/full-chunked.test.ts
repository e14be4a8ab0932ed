import type { ModelTarget } from '@agent/protocol';
import type { RecordedRequest } from '@agent/testkit';
import { describe, expect, test } from 'vitest';
import { ToolOutputSession } from '../src/hook.js';
import type { ToolOutputOptions } from '../src/index.js';
import { resolveOptions } from '../src/options.js';
import { logText, recordingContext, scriptedTarget, TAG, tempDir, wrapped } from './helpers.js';

async function stored(text: string, options: ToolOutputOptions, targets: ModelTarget[] = []) {
  const context = recordingContext({ targets });
  const session = new ToolOutputSession(context, resolveOptions({ storeDir: tempDir(), ...options }));
  const decision = await session.size(
    {
      toolName: 'fetch',
      callId: 'c1',
      argumentsJson: '{"url":"https://data.test/export"}',
      text,
      bytes: Buffer.byteLength(text),
      overSizeCap: true,
      estimatedTokens: Math.ceil(text.length / 4),
      remainingTokens: 1_000_000,
    },
    new AbortController().signal,
  );
  if (decision.action !== 'replace') throw new Error('not stored');
  const handle = String(decision.details.handle);
  const extract = async (extractText: string, mode?: string, timeoutMs?: number) => {
    const result = await session.tools()!.provider.execute(
      {
        name: 'tool_output',
        arguments: { handle, extract: extractText, ...(mode ? { mode } : {}) },
        callId: 'x',
      },
      { signal: new AbortController().signal, ...(timeoutMs === undefined ? {} : { timeoutMs }) },
    );
    if (!result.ok) throw new Error(result.error.message);
    return result.text;
  };
  return { session, context, handle, extract };
}

const system = (r: RecordedRequest) => r.messages[0]!.content;
const user = (r: RecordedRequest) => r.messages[1]!.content;

describe('full-chunked', () => {
  test('a document that fits one chunk: one map call, no reduce; closing tag optional', async () => {
    const { client, target } = scriptedTarget([
      { text: wrapped('The total is 42.', false), usage: { inputTokens: 900, outputTokens: 7 } },
    ]);
    const doc = `${'{"k":1},'.repeat(2000)}{"total":42}`;
    const { session, context, handle, extract } = await stored(doc, {}, [target]);
    const answer = await extract('the total');
    expect(answer).toBe(
      `ABSTRACT FROM TOOL OUTPUT fetch WITH HANDLE ${handle}, STRATEGY:full-chunked:\n\nThe total is 42.`,
    );
    expect(client.calls).toBe(1);
    const request = client.requests[0]!;
    expect(system(request)).toContain('- Index: 1 of 1\n- Overlap: 0%');
    expect(system(request)).toContain('- Arguments (verbatim JSON): {"url":"https://data.test/export"}');
    expect(system(request)).toContain(`<${TAG} format="text"> ... </${TAG}>`);
    expect(system(request)).toContain('WHAT TO EXTRACT\nthe total\n');
    expect(user(request)).toBe(`DOCUMENT CHUNK 1 of 1:\n\n${doc}`);
    expect(context.accounting).toEqual([
      expect.objectContaining({
        type: 'llm',
        status: 'ok',
        provider: 'x',
        model: 'extractor',
        tokens: { inputTokens: 900, outputTokens: 7, totalTokens: 907 },
      }),
    ]);
    expect(context.logs.some((l) => l.message.includes('strategy full-chunked (fits in 1 chunk'))).toBe(true);
    await session.dispose();
  });

  test('a 1 MB single line: equal overlapping chunks, one map call each, then one reduce over their answers', async () => {
    const steps = Array.from({ length: 40 }, () => (r: RecordedRequest) => {
      if (system(r).includes('synthesize multiple chunk extractions')) {
        return { text: wrapped('Found id 7 in chunk 2 and id 9 in chunk 4.') };
      }
      const index = Number(/- Index: (\d+) of/.exec(system(r))![1]);
      return {
        text: wrapped(index % 2 === 0 ? `id ${index * 3 + 1} here` : 'NO RELEVANT DATA FOUND\nonly counters'),
      };
    });
    const { client, target } = scriptedTarget(steps, { contextWindow: 60_000, contextBuffer: 0 });
    const doc = JSON.stringify({ rows: Array.from({ length: 40_000 }, (_, i) => ({ i, v: 'abcdefgh' })) });
    const { session, context, extract } = await stored(doc, { extractionOutputTokens: 2000 }, [target]);
    const answer = await extract('the ids');
    expect(answer).toMatch(/STRATEGY:full-chunked:\n\nFound id 7 in chunk 2 and id 9 in chunk 4\.$/);
    const maps = client.requests.filter((r) => system(r).includes('from a document chunk'));
    const reduces = client.requests.filter((r) =>
      system(r).includes('synthesize multiple chunk extractions'),
    );
    expect(reduces).toHaveLength(1);
    const total = maps.length;
    expect(total).toBeGreaterThan(4);
    expect(maps.every((r) => system(r).includes(`of ${total}\n- Overlap: 10%`))).toBe(true);
    const chunks = maps
      .map((r) => ({
        index: Number(/- Index: (\d+)/.exec(system(r))![1]),
        text: user(r).replace(/^DOCUMENT CHUNK \d+ of \d+:\n\n/, ''),
      }))
      .sort((a, b) => a.index - b.index);
    const sizes = chunks.map((c) => c.text.length);
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(2);
    // every chunk fits the budget: window - output tokens - prompt tokens
    expect(Math.max(...sizes) / 4).toBeLessThan(60_000 - 2000);
    // consecutive chunks share ~10% of a chunk
    for (let i = 1; i < chunks.length; i++) {
      const prev = chunks[i - 1]!.text;
      const at = prev.lastIndexOf(chunks[i]!.text.slice(0, 200));
      expect(at).toBeGreaterThan(0);
      expect(Math.abs(prev.length - at - sizes[i]! * 0.1)).toBeLessThanOrEqual(3);
    }
    expect(chunks.map((c) => c.text).join('').length).toBeGreaterThan(doc.length);
    const reduceSystem = system(reduces[0]!);
    expect(reduceSystem).toContain('--- chunk 2 of');
    expect(reduceSystem).toContain('id 7 here');
    expect(reduceSystem).toContain(`--- chunk 1 of ${total}: NO RELEVANT DATA FOUND ---\nonly counters`);
    expect(context.accounting.filter((e) => e.type === 'llm')).toHaveLength(total + 1);
    await session.dispose();
  });

  test('nothing found anywhere is a successful answer that says what was searched', async () => {
    const steps = Array.from({ length: 20 }, () => ({
      text: wrapped('NO RELEVANT DATA FOUND\nmetrics only'),
    }));
    const { client, target } = scriptedTarget(steps, { contextWindow: 30_000, contextBuffer: 0 });
    const doc = 'm'.repeat(300_000);
    const { session, extract } = await stored(doc, { extractionOutputTokens: 1000 }, [target]);
    const answer = await extract('passwords');
    expect(answer).toMatch(
      /^ABSTRACT FROM TOOL OUTPUT fetch WITH HANDLE .+, STRATEGY:full-chunked:\n\nNO RELEVANT DATA FOUND\n/,
    );
    expect(answer).toContain('Searched all ');
    expect(answer).toContain('for: "passwords". No match was found.');
    expect(answer).toContain('- chunk 1: metrics only');
    expect(client.requests.some((r) => system(r).includes('synthesize'))).toBe(false);
    await session.dispose();
  });

  test('a failing model gives way to the next extraction target; both calls are accounted', async () => {
    const first = scriptedTarget([{ error: { kind: 'server' } }]);
    const second = scriptedTarget([{ text: wrapped('fine') }]);
    const { session, context, extract } = await stored('x'.repeat(20_000), {
      models: [first.target, second.target],
    });
    expect(await extract('x')).toMatch(/STRATEGY:full-chunked:\n\nfine$/);
    expect(context.accounting.map((e) => e.status)).toEqual(['failed', 'ok']);
    await session.dispose();
  });

  test('when every model fails (or answers without the wrapper) it falls back to truncate with a WARNING', async () => {
    const a = scriptedTarget([{ text: 'I think the answer is 42 (no wrapper)' }]);
    const b = scriptedTarget([{ error: { kind: 'rate_limit' } }]);
    const doc = logText(2000);
    const { session, context, handle, extract } = await stored(doc, { models: [a.target, b.target] });
    const answer = await extract('errors', 'full-chunked');
    expect(answer).toMatch(
      new RegExp(
        `^ABSTRACT FROM TOOL OUTPUT fetch WITH HANDLE ${handle}, STRATEGY:truncate:\n\nWARNING: TRUNCATED OUTPUT\\. The full-chunked extraction could not run: every extraction model failed the map call`,
      ),
    );
    expect(answer).toContain('no <ai-agent-feed1234-FINAL> wrapper in the answer');
    expect(answer).toContain('worker-1 processed');
    expect(answer).toContain('worker-2000 ');
    const fallback = context.logs.find((l) => l.details?.fallback === 'truncate');
    expect(fallback).toMatchObject({ severity: 'WRN', details: { handle, strategy: 'full-chunked' } });
    await session.dispose();
  });

  test('the model may force truncate', async () => {
    const { session, extract } = await stored(logText(3000), {});
    const answer = await extract('anything', 'truncate');
    expect(answer).toMatch(
      /STRATEGY:truncate:\n\nWARNING: TRUNCATED OUTPUT\. The truncate mode was requested/,
    );
    await session.dispose();
  });

  test('a strategy slower than the tool timeout allows gives way to truncate', async () => {
    const { target } = scriptedTarget([{ text: wrapped('late'), delayMs: 5_000 }]);
    const { session, extract } = await stored('z'.repeat(20_000), {}, [target]);
    const answer = await extract('z', undefined, 400);
    expect(answer).toMatch(/STRATEGY:truncate:\n\nWARNING: .*could not run: it did not finish within 340 ms/);
    await session.dispose();
  });
});
