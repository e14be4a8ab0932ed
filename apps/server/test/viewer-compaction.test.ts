// The viewer shows a compaction as a node under the session, between two turns: the tokens
// before and after, the turns it replaced, the handle and the summary; its summary calls below
// it. Live (from the `compaction` event and the calls' accounting) and from a stored record.
import type { AgentEvent, AgentEventMeta, CompactionRun } from '@agent/protocol';
import { describe, expect, it } from 'vitest';
import { LiveSession } from '../src/viewer/live-session.js';
import { recordView } from '../src/viewer/record-view.js';
import { compactionLine } from '../src/viewer-ui/compaction-line.js';
import { recordNode, sessionRecord } from './record-fixtures.js';

const meta: AgentEventMeta = { isMaster: true, isFinal: false, sessionId: 's', agentPath: 'lead' };
const limits = { maxNodes: 100, foldChars: 200 };
const turn = (n: number): AgentEvent => ({
  type: 'turn_started',
  turn: n,
  attempt: 1,
  isRetry: false,
  isFinalTurn: false,
});
const SUMMARY = `The user wants the failing test fixed. ${'Found in the parser. '.repeat(20)}`;

const compacted: CompactionRun = {
  index: 1,
  turn: 3,
  trigger: 'turn_projection',
  outcome: 'compacted',
  beforeTokens: 12_400,
  afterTokens: 3_050,
  limitTokens: 14_000,
  thresholdTokens: 11_200,
  messages: 9,
  fromTurn: 1,
  toTurn: 2,
  calls: 1,
  handle: 'h-41c9',
  summary: SUMMARY,
  provider: 'local',
  model: 'writer',
  durationMs: 80,
};

const failed: CompactionRun = {
  ...compacted,
  index: 2,
  turn: 5,
  outcome: 'failed',
  afterTokens: 12_400,
  calls: 2,
  handle: undefined,
  summary: undefined,
  error: 'every summary call failed: timed out',
  exhausted: true,
};

describe('the live tree', () => {
  it('adds a compaction node between the turns with its numbers, handle and summary, the summary call under it', () => {
    const session = new LiveSession('v1', 'lead', 'rest', limits, 1000);
    const llm = (timestamp: number, inputTokens: number, purpose?: 'compaction'): AgentEvent => ({
      type: 'accounting',
      entry: {
        type: 'llm',
        timestamp,
        status: 'ok',
        latency: 60,
        provider: 'local',
        model: 'writer',
        tokens: { inputTokens, outputTokens: 400, totalTokens: inputTokens + 400 },
        ...(purpose === undefined ? {} : { purpose }),
      },
    });
    session.apply(turn(3), meta, 1000);
    session.apply(llm(1070, 12_000), meta, 1070);
    session.apply(llm(1150, 9_000, 'compaction'), meta, 1150);
    session.apply({ type: 'compaction', run: compacted }, meta, 1160);
    session.apply(turn(4), meta, 1170);
    const [turn3, node, turn4] = session.view.tree.children;
    expect([turn3?.label, node?.label, turn4?.label]).toEqual(['turn 3', 'compaction 1', 'turn 4']);
    // The turn it followed has ended; the summary call is no call of that turn.
    expect(turn3).toMatchObject({ status: 'ok', endedAt: 1080 });
    expect(turn3!.children.map((n) => [n.kind, n.inputTokens])).toEqual([['llm', 12_000]]);
    expect(node).toMatchObject({
      kind: 'compaction',
      status: 'ok',
      startedAt: 1080,
      endedAt: 1160,
      compaction: { beforeTokens: 12_400, afterTokens: 3_050, handle: 'h-41c9', fromTurn: 1, toTurn: 2 },
    });
    expect(node!.compaction!.summary).toContain('The user wants the failing test fixed.');
    expect(node!.compaction!.summary).toContain('more characters not kept');
    expect(node!.children).toEqual([
      expect.objectContaining({ kind: 'llm', label: 'local:writer', inputTokens: 9_000, outputTokens: 400 }),
    ]);
    // The summary call's tokens count in the session's totals.
    expect(session.view.totals.inputTokens).toBe(21_000);
  });

  it('shows a failed compaction as a failed node with why', () => {
    const session = new LiveSession('v2', 'lead', 'rest', limits, 1000);
    session.apply(turn(5), meta, 1000);
    session.apply({ type: 'compaction', run: failed }, meta, 1100);
    const node = session.view.tree.children.find((n) => n.kind === 'compaction');
    expect(node).toMatchObject({
      status: 'failed',
      error: 'every summary call failed: timed out',
      compaction: { outcome: 'failed', exhausted: true },
    });
  });
});

describe('a stored record', () => {
  it("shows the record's compaction node with its run and its summary call", () => {
    const node = recordNode;
    const record = sessionRecord(
      node({
        id: 'root',
        kind: 'session',
        label: 'lead',
        children: [
          node({ id: 't1', kind: 'turn', label: 'turn 3' }),
          node({
            id: 'c1',
            kind: 'compaction',
            label: 'compaction 1',
            compaction: compacted,
            children: [node({ id: 'l1', kind: 'llm', label: 'local:writer' })],
          }),
          node({ id: 't2', kind: 'turn', label: 'turn 4' }),
        ],
      }),
      {
        success: true,
        exitCode: 'EXIT-FINAL-ANSWER',
      },
    );
    const view = recordView(record, limits);
    const shown = view.tree.children[1]!;
    expect(shown).toMatchObject({
      kind: 'compaction',
      label: 'compaction 1',
      compaction: { handle: 'h-41c9', beforeTokens: 12_400, afterTokens: 3_050 },
      children: [expect.objectContaining({ kind: 'llm' })],
    });
    expect(shown.compaction!.summary!.length).toBeLessThan(SUMMARY.length);
  });
});

describe("the page's compaction line", () => {
  it('says what was replaced, the tokens before and after and the handle; or why it failed', () => {
    expect(compactionLine(compacted)).toBe(
      'turns 1–2 (9 messages) → summary: 12,400 → 3,050 tokens (9,350 saved, limit 14,000), 1 summary call; transcript behind handle h-41c9',
    );
    expect(compactionLine(failed)).toBe(
      'failed after 2 summary calls (80 ms): every summary call failed: timed out; compaction is off for the rest of the session',
    );
  });
});
