import * as nodeFs from 'node:fs/promises';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { ToolOutputSession } from '../src/hook.js';
import { resolveOptions } from '../src/options.js';
import type { StoreFs } from '../src/store-fs.js';
import { recordingContext, tempDir } from './helpers.js';

/** Node's fs, with every call recorded (operation and arguments). */
function recordingFs(): { fs: StoreFs; calls: { op: string; args: unknown[] }[] } {
  const calls: { op: string; args: unknown[] }[] = [];
  const wrap =
    <A extends unknown[], R>(op: string, fn: (...args: A) => R) =>
    (...args: A): R => {
      calls.push({ op, args });
      return fn(...args);
    };
  const fs = {
    mkdir: wrap('mkdir', nodeFs.mkdir),
    open: wrap('open', nodeFs.open),
    rm: wrap('rm', nodeFs.rm),
    readdir: wrap('readdir', nodeFs.readdir),
    readFile: wrap('readFile', nodeFs.readFile),
    writeFile: wrap('writeFile', nodeFs.writeFile),
  } as unknown as StoreFs;
  return { fs, calls };
}

const request = (text: string) => ({
  toolName: 'big_tool',
  callId: 'c1',
  argumentsJson: '{"q":1}',
  text,
  bytes: Buffer.byteLength(text),
  overSizeCap: true,
  estimatedTokens: Math.ceil(text.length / 4),
  remainingTokens: 100_000,
});

async function sessionWithOneOutput(storeDir: string, sessionId: string) {
  const recorder = recordingFs();
  const context = recordingContext({ sessionId });
  const session = new ToolOutputSession(context, resolveOptions({ storeDir }), recorder.fs);
  const decision = await session.size(request('secret line\n'.repeat(2000)), new AbortController().signal);
  if (decision.action !== 'replace') throw new Error('expected the output to be stored');
  const handle = String(decision.details.handle);
  return { session, handle, recorder };
}

async function callToolOutput(session: ToolOutputSession, args: Record<string, unknown>) {
  const provider = session.tools()!.provider;
  return provider.execute(
    { name: 'tool_output', arguments: args, callId: 't1' },
    { signal: new AbortController().signal },
  );
}

describe('handles are validated, never used as paths', () => {
  test("hostile strings, another session's handle and unissued UUIDs fail without touching the filesystem", async () => {
    const storeDir = tempDir();
    const mine = await sessionWithOneOutput(storeDir, 'mine');
    const other = await sessionWithOneOutput(storeDir, 'other');
    const dir = mine.session.store.directory!;
    const hostile = [
      '../x',
      '../../etc/passwd',
      '/etc/passwd',
      dir,
      `${dir}/${mine.handle}`,
      `./${mine.handle}`,
      `${mine.handle}/`,
      ` ${mine.handle}`,
      mine.handle.toUpperCase(),
      other.handle,
      '00000000-0000-4000-8000-000000000000',
      '.ai-agent-owner.json',
      '.',
      '..',
      'C:\\Windows\\system32',
      `${mine.handle}\u0000`,
    ];
    const arbitrary = fc.oneof(
      fc.constantFrom(...hostile),
      fc.string({ maxLength: 200 }),
      fc.uuid(),
      fc
        .array(fc.constantFrom('..', '.', 'etc', mine.handle, other.handle, ''), { maxLength: 6 })
        .map((parts) => parts.join('/')),
      fc.string().map((s) => `/${s}`),
    );
    await fc.assert(
      fc.asyncProperty(
        arbitrary,
        fc.constantFrom('auto', 'truncate', 'read-grep', 'full-chunked'),
        async (handle, mode) => {
          fc.pre(handle !== mine.handle);
          mine.recorder.calls.length = 0;
          expect(mine.session.store.lookup(handle)).toBeUndefined();
          const result = await callToolOutput(mine.session, { handle, extract: 'everything', mode });
          expect(mine.recorder.calls).toEqual([]);
          expect(result.ok).toBe(true);
          if (!result.ok) return;
          expect(result.isError).toBe(true);
          // Seed 001's failure header: the handle is one bare token, never a quoted string.
          expect(result.text).toMatch(
            /^TOOL_OUTPUT FAILED FOR unknown WITH HANDLE [^\s",]+, STRATEGY:(auto|truncate|read-grep|full-chunked):\n\n/,
          );
          expect(result.text).toMatch(
            /is not a handle issued in this session|"handle" must be the UUID string/,
          );
          // Only what the model sent is echoed: never the store's path, never stored content.
          if (!handle.includes(storeDir)) expect(result.text).not.toContain(storeDir);
          expect(result.text).not.toContain('secret line');
        },
      ),
      { numRuns: 400 },
    );
    // The issued handle does reach the file (the recorder sees it).
    const ok = await callToolOutput(mine.session, { handle: mine.handle, extract: 'x', mode: 'truncate' });
    expect(
      ok.ok &&
        ok.text.startsWith(
          `ABSTRACT FROM TOOL OUTPUT big_tool WITH HANDLE ${mine.handle}, STRATEGY:truncate:`,
        ),
    ).toBe(true);
    expect(mine.recorder.calls.map((c) => c.op)).toContain('open');
    await mine.session.dispose();
    await other.session.dispose();
  });

  test('bad arguments are failures in the exact format', async () => {
    const storeDir = tempDir();
    const { session, handle } = await sessionWithOneOutput(storeDir, 's');
    const missingExtract = await callToolOutput(session, { handle });
    expect(missingExtract.ok && missingExtract.text).toBe(
      `TOOL_OUTPUT FAILED FOR big_tool WITH HANDLE ${handle}, STRATEGY:auto:\n\n"extract" must be a non-empty string saying precisely what you need from the output`,
    );
    const badMode = await callToolOutput(session, { handle, extract: 'x', mode: 'grep-everything' });
    expect(badMode.ok && badMode.text).toMatch(
      /^TOOL_OUTPUT FAILED FOR big_tool WITH HANDLE .+, STRATEGY:auto:\n\n"mode" must be one of auto, full-chunked, read-grep, truncate/,
    );
    const extra = await callToolOutput(session, { handle, extract: 'x', path: '/etc/passwd' });
    expect(extra.ok && extra.text).toContain('unknown argument "path"');
    const notString = await callToolOutput(session, { handle: 42, extract: 'x' });
    expect(notString.ok && notString.text).toMatch(
      /^TOOL_OUTPUT FAILED FOR unknown WITH HANDLE \(none\), STRATEGY:auto:\n\n"handle" must be/,
    );
    await session.dispose();
  });

  test("a well-formed handle never issued answers in seed 001's exact failure format", async () => {
    const storeDir = tempDir();
    const { session, handle } = await sessionWithOneOutput(storeDir, 'never-issued');
    const unissued = '3f1c2b9e-7a4d-4c1e-9b2a-5d6e7f8a9b0c';
    const result = await callToolOutput(session, {
      handle: unissued,
      extract: 'the errors',
      mode: 'read-grep',
    });
    expect(result.ok && result.isError).toBe(true);
    expect(result.ok && result.text).toBe(
      `TOOL_OUTPUT FAILED FOR unknown WITH HANDLE ${unissued}, STRATEGY:read-grep:\n\n` +
        `"${unissued}" is not a handle issued in this session. Pass a handle exactly as given in a "Tool output is too large" message or a "[Context compacted]" summary of this conversation; the handles of this session are: "${handle}" (big_tool).`,
    );
    // A value that is no single token (spaces, quotes, a newline) is not put in the header.
    const garbled = await callToolOutput(session, { handle: 'a b, "c"\nd', extract: 'x' });
    expect(garbled.ok && garbled.text).toMatch(
      /^TOOL_OUTPUT FAILED FOR unknown WITH HANDLE \(invalid\), STRATEGY:auto:\n\n"a b, \\"c\\" d" is not a handle issued/,
    );
    await session.dispose();
  });
});
