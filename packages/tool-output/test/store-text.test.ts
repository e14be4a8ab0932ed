import { COMPACTION_STORE_NAME, type SavedToolOutput } from '@agent/protocol';
import { expect, test } from 'vitest';
import { MAX_SAVED_OUTPUT_BYTES } from '../src/carry.js';
import { ToolOutputSession } from '../src/hook.js';
import { resolveOptions } from '../src/options.js';
import { STORE_ERROR_CODE } from '../src/store-error.js';
import { recordingContext, scriptedTarget, tempDir, wrapped } from './helpers.js';

// Issue 39: a compaction stores the transcript it moves out of the context through `storeText`;
// the model expands it with `tool_output`, and the snapshot carries it before tool outputs.

const signal = new AbortController().signal;

/** A compaction transcript as the core renders it: role headers, a tool call, its result. */
const TRANSCRIPT = [
  '[user]',
  'Find why the nightly export fails.',
  '[assistant]',
  'tool call fetch {"url":"https://data.test/export.log"}',
  '[tool fetch]',
  '2026-01-14T02:00:00Z ERROR export-7 failed: disk quota exceeded on /var/export',
  '[assistant]',
  'The export fails on disk quota; checking the volume next.',
  '',
].join('\n');

const compaction = (text: string, fromTurn = 1, toTurn = 3) => ({
  toolName: COMPACTION_STORE_NAME,
  argumentsJson: JSON.stringify({ fromTurn, toTurn }),
  text,
  tokens: Math.ceil(text.length / 4),
});

function hookFor(
  storeDir: string,
  sessionId: string,
  targets = [] as ReturnType<typeof scriptedTarget>['target'][],
) {
  const context = recordingContext({ sessionId, targets });
  return { hook: new ToolOutputSession(context, resolveOptions({ storeDir })), context };
}

async function expand(hook: ToolOutputSession, handle: string, extract: string, mode?: string) {
  const listed = hook.tools();
  expect(listed?.definitions.map((d) => d.name)).toEqual(['tool_output']);
  const result = await listed!.provider.execute(
    { name: 'tool_output', arguments: { handle, extract, ...(mode ? { mode } : {}) }, callId: 'c1' },
    { signal },
  );
  if (!result.ok) throw new Error(result.error.message);
  return result.text;
}

test('storeText: the handle expands with tool_output; the extraction model reads the transcript verbatim', async () => {
  const { client, target } = scriptedTarget([{ text: wrapped('The export fails on a disk quota.') }]);
  const { hook, context } = hookFor(tempDir(), 's-store', [target]);
  expect(hook.tools()).toBeUndefined();

  const handle = await hook.storeText(compaction(TRANSCRIPT), signal);
  expect(handle).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  expect(hook.store.lookup(handle)).toMatchObject({
    toolName: COMPACTION_STORE_NAME,
    argumentsJson: '{"fromTurn":1,"toTurn":3}',
    bytes: Buffer.byteLength(TRANSCRIPT),
    lines: 8,
  });
  expect(context.logs.at(-1)?.message).toBe(
    `stored agent__compaction {"fromTurn":1,"toTurn":3} behind handle ${handle}: ${Buffer.byteLength(TRANSCRIPT)} bytes, 8 lines, ${Math.ceil(TRANSCRIPT.length / 4)} tokens`,
  );

  const answer = await expand(hook, handle, 'why the export fails', 'full-chunked');
  expect(answer).toBe(
    `ABSTRACT FROM TOOL OUTPUT agent__compaction WITH HANDLE ${handle}, STRATEGY:full-chunked:\n\nThe export fails on a disk quota.`,
  );
  expect(client.calls).toBe(1);
  const request = client.requests[0]!;
  expect(request.messages[1]!.content).toBe(`DOCUMENT CHUNK 1 of 1:\n\n${TRANSCRIPT}`);
  // The extraction model is told the document is a compacted part of the conversation.
  expect(request.messages[0]!.content).toContain(
    '- Name: agent__compaction (not a tool: a transcript of earlier turns of this conversation',
  );
  expect(request.messages[0]!.content).toContain('- Arguments (verbatim JSON): {"fromTurn":1,"toTurn":3}');
  // The truncate mode shows a small transcript whole: the original text, byte for byte.
  expect(await expand(hook, handle, 'everything', 'truncate')).toContain(`nothing was cut.\n\n${TRANSCRIPT}`);
  await hook.dispose();
});

test('the tool_output description says a handle may name a compacted part of the conversation', async () => {
  const { hook } = hookFor(tempDir(), 's-desc');
  await hook.storeText(compaction(TRANSCRIPT), signal);
  const [definition] = hook.tools()!.definitions;
  expect(definition!.description).toContain('or from a compacted part of this conversation');
  expect(definition!.description).toContain('a handle named in a "[Context compacted]" summary');
  const unknown = await expand(hook, '5b1c5d0e-1f2a-4b3c-8d4e-5f6a7b8c9d0e', 'x');
  expect(unknown).toContain('or a "[Context compacted]" summary of this conversation');
  expect(unknown).toContain('(agent__compaction)');
  await hook.dispose();
});

test('a stored transcript survives saveOutputs/restoreOutputs into a new hook and reads the same', async () => {
  const parent = tempDir();
  const first = hookFor(parent, 's-carry');
  const handle = await first.hook.storeText(compaction(TRANSCRIPT, 2, 9), signal);
  const saved = JSON.parse(JSON.stringify(await first.hook.saveOutputs())) as SavedToolOutput[];
  await first.hook.dispose();

  const { client, target } = scriptedTarget([{ text: wrapped('disk quota on /var/export') }]);
  const resumed = hookFor(parent, 's-carry', [target]);
  await resumed.hook.restoreOutputs(saved);
  const record = resumed.hook.store.lookup(handle)!;
  expect(record).toMatchObject({
    toolName: COMPACTION_STORE_NAME,
    argumentsJson: '{"fromTurn":2,"toTurn":9}',
  });
  expect(await resumed.hook.store.read(record)).toBe(TRANSCRIPT);
  expect(await expand(resumed.hook, handle, 'the failing volume', 'full-chunked')).toBe(
    `ABSTRACT FROM TOOL OUTPUT agent__compaction WITH HANDLE ${handle}, STRATEGY:full-chunked:\n\ndisk quota on /var/export`,
  );
  expect(client.requests[0]!.messages[1]!.content).toBe(`DOCUMENT CHUNK 1 of 1:\n\n${TRANSCRIPT}`);
  await resumed.hook.dispose();
});

test('over the carry bound, compaction transcripts are kept before larger and newer tool outputs', async () => {
  const { hook, context } = hookFor(tempDir(), 's-bound');
  const third = 'x'.repeat(MAX_SAVED_OUTPUT_BYTES / 3);
  const output = (toolName: string) => ({
    toolName,
    argumentsJson: '{}',
    bytes: third.length,
    lines: 1,
    tokens: 9,
  });
  const oldest = await hook.storeText(compaction(third, 1, 4), signal);
  await hook.store.put(output('fetch'), third);
  const newer = await hook.storeText(compaction(third, 5, 9), signal);
  await hook.store.put(output('export'), third);
  await hook.store.put(output('search'), third);

  const saved = await hook.saveOutputs();
  // Both transcripts fit with one tool output, the newest; stored order is kept.
  expect(saved.map((s) => [s.toolName, s.argumentsJson])).toEqual([
    [COMPACTION_STORE_NAME, '{"fromTurn":1,"toTurn":4}'],
    [COMPACTION_STORE_NAME, '{"fromTurn":5,"toTurn":9}'],
    ['search', '{}'],
  ]);
  expect(saved.map((s) => s.handle).slice(0, 2)).toEqual([oldest, newer]);
  expect(context.logs.at(-1)?.message).toContain('2 stored outputs are left out of the snapshot');
  await hook.dispose();
});

test('among compaction transcripts alone over the bound, the newest are kept', async () => {
  const { hook } = hookFor(tempDir(), 's-newest');
  const half = 'y'.repeat(MAX_SAVED_OUTPUT_BYTES / 2 - 10);
  await hook.storeText(compaction(half, 1, 2), signal);
  await hook.storeText(compaction(half, 3, 4), signal);
  await hook.storeText(compaction(half, 5, 6), signal);
  const saved = await hook.saveOutputs();
  expect(saved.map((s) => s.argumentsJson)).toEqual([
    '{"fromTurn":3,"toTurn":4}',
    '{"fromTurn":5,"toTurn":6}',
  ]);
  await hook.dispose();
});

test('storeText after dispose, or with an aborted signal, rejects with a clear StoreError and stores nothing', async () => {
  const { hook } = hookFor(tempDir(), 's-ended');
  const aborted = new AbortController();
  aborted.abort();
  await expect(hook.storeText(compaction(TRANSCRIPT), aborted.signal)).rejects.toMatchObject({
    code: STORE_ERROR_CODE,
    message: 'storing agent__compaction {"fromTurn":1,"toTurn":3} was aborted (the session is stopping)',
  });
  await hook.dispose();
  await expect(hook.storeText(compaction(TRANSCRIPT), signal)).rejects.toMatchObject({
    code: STORE_ERROR_CODE,
    message:
      'cannot store agent__compaction {"fromTurn":1,"toTurn":3}: the tool-output store was released (the session is ending)',
  });
  expect(hook.store.isEmpty).toBe(true);
  expect(hook.tools()).toBeUndefined();
});
