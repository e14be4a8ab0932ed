// Hostile session records: a small gzip file that inflates past the bound, a tree deeper than
// any session makes, and a FIFO at a record's path are refused fast, with what was wrong.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, test } from 'vitest';
import { MAX_RECORD_BYTES, readSessionRecord } from '../src/index.js';

const root = mkdtempSync(join(tmpdir(), 'record-bounds-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function recordWith(tree: unknown, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    kind: 'agent-session-record',
    version: 1,
    sessionId: 's1',
    agent: 'a',
    startedAt: 0,
    endedAt: 1,
    durationMs: 1,
    success: true,
    exitCode: 'EXIT-SUCCESS',
    totals: {},
    tree,
    ...extra,
  });
}

const leaf = { id: 'n', kind: 'tool', label: 'l', startedAt: 0, status: 'ok', children: [] };

describe('hostile session records', () => {
  test('a gzip record that inflates just past the bound is refused fast, naming the bound', async () => {
    const path = join(root, 'bomb.json.gz');
    // A few KB on disk, just over the bound once inflated.
    const text = recordWith(leaf, { error: 'x'.repeat(MAX_RECORD_BYTES) });
    writeFileSync(path, gzipSync(text, { level: 9 }));
    const started = Date.now();
    await expect(readSessionRecord(path)).rejects.toThrow(
      /inflates to more than 16 MiB, the bound of a session record/,
    );
    expect(Date.now() - started).toBeLessThan(3000);
  });

  test('a record just under the bound is read', async () => {
    const path = join(root, 'large.json.gz');
    writeFileSync(path, gzipSync(recordWith(leaf, { error: 'x'.repeat(MAX_RECORD_BYTES - 4096) })));
    expect((await readSessionRecord(path)).error).toHaveLength(MAX_RECORD_BYTES - 4096);
  });

  test('a version 1 record (no input, no tapes) and a version 2 one are both read', async () => {
    const v1 = join(root, 'v1.json.gz');
    writeFileSync(v1, gzipSync(recordWith({ ...leaf, kind: 'session' })));
    const read1 = await readSessionRecord(v1);
    expect(read1.version).toBe(1);
    expect(read1.input).toBeUndefined();
    expect(read1.tree.tape).toBeUndefined();
    const v2 = join(root, 'v2.json.gz');
    const tape = { agentPath: 'a', ordinal: 0, messages: [], tools: [], calls: [], toolCalls: [] };
    const input = { prompt: 'Go.', promptFacts: { HOSTNAME: 'h' } };
    writeFileSync(v2, gzipSync(recordWith({ ...leaf, kind: 'session', tape }, { version: 2, input })));
    const read2 = await readSessionRecord(v2);
    expect(read2.tree.tape).toEqual(tape);
    expect(read2.input).toEqual(input);
  });

  test('a tree deeper than the bound is refused, without a stack overflow', async () => {
    // Written as text: JSON.stringify itself would overflow the stack on such a tree.
    const open = '{"id":"n","kind":"session","label":"l","startedAt":0,"status":"ok","children":[';
    const deep = `${open.repeat(20_000)}${']}'.repeat(20_000)}`;
    const path = join(root, 'deep.json.gz');
    writeFileSync(path, gzipSync(recordWith(leaf).replace(JSON.stringify(leaf), deep)));
    await expect(readSessionRecord(path)).rejects.toThrow(
      /its tree is deeper than 256 levels, the bound of a session record/,
    );
  });

  test('a node without a children list is not a record', async () => {
    const path = join(root, 'shape.json.gz');
    writeFileSync(path, gzipSync(recordWith({ ...leaf, children: [{ id: 'x' }] })));
    await expect(readSessionRecord(path)).rejects.toThrow(/a node of its tree has no "children" list/);
  });

  test('a FIFO at the record path is refused without blocking', async () => {
    const path = join(root, 'fifo.json.gz');
    execFileSync('mkfifo', [path], { stdio: 'ignore' });
    await expect(readSessionRecord(path)).rejects.toThrow(/not a regular file/);
  });
});
