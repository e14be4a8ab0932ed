// `agent inspect`'s tree on a hostile shape: many siblings render without a stack overflow.
// (A tree deeper than a record may be is refused by the reader: packages/runtime/test/record-bounds.test.ts.)
import type { RecordNode, SessionRecord } from '@agent/protocol';
import { describe, expect, it } from 'vitest';
import { renderSessionRecord } from '../../src/output/session-tree.js';

function llm(id: string): RecordNode {
  return {
    id,
    kind: 'llm',
    label: 'local:m',
    startedAt: 0,
    endedAt: 1,
    status: 'ok',
    children: [],
    accounting: {
      type: 'llm',
      status: 'ok',
      timestamp: 1,
      latency: 1,
      provider: 'local',
      model: 'm',
      tokens: { inputTokens: 2, outputTokens: 1, totalTokens: 3 },
      costUsd: 0.5,
    } as RecordNode['accounting'],
  };
}

function recordOf(tree: RecordNode): SessionRecord {
  return {
    kind: 'agent-session-record',
    version: 1,
    sessionId: 's',
    agent: 'a',
    startedAt: 0,
    endedAt: 1,
    durationMs: 1,
    success: true,
    exitCode: 'EXIT-SUCCESS',
    tree,
  } as unknown as SessionRecord;
}

const session = (children: RecordNode[]): RecordNode => ({
  id: 'root',
  kind: 'session',
  label: 'a',
  startedAt: 0,
  endedAt: 1,
  status: 'ok',
  children,
});

describe('renderSessionRecord on hostile trees', () => {
  it('200,000 sibling nodes: every one rendered, totals summed', () => {
    const children = Array.from({ length: 200_000 }, (_, i) => llm(`n${i}`));
    const text = renderSessionRecord(recordOf(session(children)), { full: false });
    expect(text).toContain('totals: 200000 LLM calls, 0 tool calls, 400000 in / 200000 out tokens');
    expect(text.split('\n').filter((line) => line.includes('llm local:m'))).toHaveLength(200_000);
  });
});
