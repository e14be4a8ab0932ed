// The viewer's record source without a browser: session records in real temp directories,
// converted within the viewer's bounds, unreadable files left out, new records noticed.
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { RecordNode, SessionRecord } from '@agent/protocol';
import { afterAll, describe, expect, it } from 'vitest';
import { RecordSessionSource } from '../src/viewer/record-source.js';
import { recordView } from '../src/viewer/record-view.js';

const root = mkdtempSync(join(tmpdir(), 'viewer-records-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const limits = { maxNodes: 100, foldChars: 40 };

function node(id: string, kind: RecordNode['kind'], extra: Partial<RecordNode> = {}): RecordNode {
  return { id, kind, label: id, startedAt: 1000, endedAt: 1100, status: 'ok', children: [], ...extra };
}

function record(sessionId: string, startedAt: number, extra: Partial<SessionRecord> = {}): SessionRecord {
  const llm = node('n2', 'llm', {
    label: 'local:big',
    accounting: {
      type: 'llm',
      status: 'ok',
      timestamp: 1100,
      latency: 100,
      provider: 'local',
      model: 'big',
      tokens: { inputTokens: 12, outputTokens: 4, cachedTokens: 2, totalTokens: 16 },
      costUsd: 0.01,
    } as RecordNode['accounting'],
  });
  const tool = node('n3', 'tool', {
    label: 'lookup',
    toolCallId: 'call-1',
    status: 'failed',
    error: 'timed out',
    payload: { arguments: JSON.stringify({ key: 'k'.repeat(100) }), result: 'partial' },
  });
  return {
    kind: 'agent-session-record',
    version: 1,
    sessionId,
    agent: 'lead',
    startedAt,
    endedAt: startedAt + 500,
    durationMs: 500,
    success: false,
    exitCode: 'EXIT-TOOL-FAILED',
    error: 'the tool failed',
    totals: {
      llmCalls: 1,
      toolCalls: 1,
      inputTokens: 12,
      outputTokens: 4,
      cachedTokens: 2,
      costUsd: 0.01,
      durationMs: 500,
    },
    tree: node('n0', 'session', {
      label: 'lead',
      sessionId,
      children: [node('n1', 'turn', { children: [llm, tool] })],
    }),
    logs: [],
    accounting: [],
    ...extra,
  } as SessionRecord;
}

function write(dir: string, value: SessionRecord): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${value.sessionId}.json.gz`), gzipSync(JSON.stringify(value)));
}

describe('a record as the viewer shows it', () => {
  it('keeps the tree, the LLM call figures and the tool call, folded and within maxNodes', () => {
    const view = recordView(record('s-1', 1000), limits);
    expect(view).toMatchObject({
      id: 's-1',
      sessionId: 's-1',
      agent: 'lead',
      status: 'failed',
      droppedNodes: 0,
    });
    expect(view.error).toBe('the tool failed');
    const [llm, tool] = view.tree.children[0]!.children;
    expect(llm).toMatchObject({
      kind: 'llm',
      model: 'big',
      inputTokens: 12,
      outputTokens: 4,
      cachedTokens: 2,
      latencyMs: 100,
    });
    expect(tool).toMatchObject({
      kind: 'tool',
      callId: 'call-1',
      status: 'failed',
      error: 'timed out',
      result: 'partial',
    });
    expect(tool?.arguments).toContain('more characters not kept');
    const small = recordView(record('s-1', 1000), { maxNodes: 2, foldChars: 40 });
    expect(small.droppedNodes).toBe(2);
    expect(small.tree.children[0]?.children).toEqual([]);
  });

  it('a hostile tree: 200,000 siblings past maxNodes and a deep chain are counted, not overflowing the stack', () => {
    const many = Array.from({ length: 200_000 }, (_, i) => node(`w${i}`, 'llm'));
    let chain = node('leaf', 'llm');
    for (let i = 0; i < 20_000; i++) chain = node(`d${i}`, 'session', { children: [chain] });
    const tree = node('root', 'session', {
      children: [node('kept', 'turn'), node('wide', 'turn', { children: many }), chain],
    });
    const view = recordView({ ...record('s-2', 1000), tree }, { maxNodes: 2, foldChars: 40 });
    expect(view.tree.children.map((child) => child.id)).toEqual(['kept']);
    expect(view.droppedNodes).toBe(200_001 + 20_001);
    const deep = recordView({ ...record('s-3', 1000), tree: chain }, { maxNodes: 50_000, foldChars: 40 });
    let depth = 0;
    for (let at = deep.tree; at.children.length > 0; at = at.children[0]!) depth++;
    expect(depth).toBe(20_000);
    expect(deep.droppedNodes).toBe(0);
  });
});

describe('RecordSessionSource', () => {
  it('lists the records of every directory newest first, leaving out files it cannot read', async () => {
    const [a, b] = [join(root, 'a'), join(root, 'b')];
    write(a, record('older', 1000));
    write(b, record('newer', 5000));
    writeFileSync(join(a, 'broken.json.gz'), 'not gzip');
    // The broken file is the oldest, so the one-file listing below is of a readable record.
    utimesSync(join(a, 'broken.json.gz'), 1, 1);
    const source = new RecordSessionSource({ dirs: [a, b], maxSessions: 10, limits });
    const list = await source.list();
    expect(list.map((session) => session.id)).toEqual(['newer', 'older']);
    expect(list[0]).toMatchObject({ agent: 'lead', status: 'failed', totals: { llmCalls: 1 } });
    expect((await source.get('older'))?.tree.children).toHaveLength(1);
    expect(await source.get('broken')).toBeUndefined();
    expect(await source.get('../a/older')).toBeUndefined();
    const one = new RecordSessionSource({ dirs: [a, b], maxSessions: 1, limits });
    expect((await one.list()).map((session) => session.id)).toHaveLength(1);
  });

  it('a gzip bomb among the records is left out of the list and not shown, refused fast', async () => {
    const dir = join(root, 'bombed');
    write(dir, record('fine', 1000));
    // 17 MiB once inflated (over the 16 MiB bound of a record), a few KB on disk.
    const bomb = JSON.stringify(record('bomb', 2000, { error: 'x'.repeat(17 * 1024 * 1024) }));
    writeFileSync(join(dir, 'bomb.json.gz'), gzipSync(bomb, { level: 9 }));
    const source = new RecordSessionSource({ dirs: [dir], maxSessions: 10, limits });
    const started = Date.now();
    expect((await source.list()).map((session) => session.id)).toEqual(['fine']);
    expect(await source.get('bomb')).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('tells its listeners when a new record is written', async () => {
    const dir = join(root, 'watched');
    write(dir, record('first', 1000));
    const source = new RecordSessionSource({ dirs: [dir], maxSessions: 10, limits, pollMs: 20 });
    const heard: string[] = [];
    const unsubscribe = source.subscribe((id) => heard.push(id));
    // The first look is the baseline: records written after it are news. Write one at a time
    // until the listeners hear of one (how soon depends on the machine, not on this test).
    const written: string[] = [];
    while (heard.length === 0) {
      written.push(`later-${written.length}`);
      write(dir, record(written.at(-1)!, 2000 + written.length));
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
    unsubscribe();
    expect(written).toContain(heard[0]);
    expect((await source.list()).map((session) => session.id)).toEqual(
      [...written].reverse().concat('first'),
    );
  });
});
