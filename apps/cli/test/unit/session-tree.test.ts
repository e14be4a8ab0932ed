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

describe('renderSessionRecord: guardrails and tool policy', () => {
  it('prints a guardrail node with its outcome and reason, and a tool node with its policy decision', () => {
    const guard: RecordNode = {
      id: 'g1',
      kind: 'guardrail',
      label: 'no-cards',
      startedAt: 0,
      endedAt: 3,
      status: 'failed',
      children: [],
      guardrail: {
        name: 'no-cards',
        on: 'tool',
        phase: 'result',
        outcome: 'block',
        reason: 'rule pii.card matched',
        callId: 'call-7',
        tool: 'crm__lookup',
        latencyMs: 3,
      },
    };
    const call: RecordNode = {
      id: 't1',
      kind: 'tool',
      label: 'http__post',
      startedAt: 0,
      endedAt: 1,
      status: 'failed',
      children: [],
      policy: {
        callId: 'call-8',
        tool: 'http__post',
        decision: 'deny',
        rule: 0,
        ruleName: 'no big payments',
        reason: 'over the limit',
      },
    };
    const lines = renderSessionRecord(recordOf(session([guard, call])), { full: false }).split('\n');
    const at = lines.findIndex((line) => line.includes('guardrail no-cards'));
    expect(lines[at]).not.toContain('tokens');
    expect(lines[at + 1]?.replace(/^[│ ]+/, '')).toBe(
      'guardrail tool result of crm__lookup call-7: block: rule pii.card matched',
    );
    const tool = lines.findIndex((line) => line.includes('tool http__post'));
    expect(lines[tool + 1]?.replace(/^[│ ]+/, '')).toBe('policy: deny by no big payments: over the limit');
  });
});

describe('renderSessionRecord: compactions', () => {
  const run: NonNullable<RecordNode['compaction']> = {
    index: 1,
    turn: 4,
    trigger: 'turn_projection',
    outcome: 'compacted',
    beforeTokens: 13_100,
    afterTokens: 2_900,
    limitTokens: 15_000,
    thresholdTokens: 12_000,
    messages: 11,
    fromTurn: 1,
    toTurn: 2,
    calls: 1,
    handle: 'h-9d02',
    summary: `The user asked for a report on the logs.\n${'The parser fails on line 40. '.repeat(10)}`,
    durationMs: 70,
  };
  const compactionNode = (fields: Partial<RecordNode>): RecordNode => ({
    id: 'c1',
    kind: 'compaction',
    label: 'compaction 1',
    startedAt: 0,
    endedAt: 70,
    status: 'ok',
    children: [],
    compaction: run,
    ...fields,
  });

  it('prints the turns replaced, tokens before and after, the handle and the summary, with the summary call below', () => {
    const node = compactionNode({ children: [llm('s1')] });
    const lines = renderSessionRecord(recordOf(session([node])), { full: false }).split('\n');
    const at = lines.findIndex((line) => line.includes('compaction 1'));
    expect(lines[at]).toContain('compaction 1  ok  70ms  2 in / 1 out tokens');
    const below = lines.slice(at + 1, at + 4).map((line) => line.replace(/^[│ ]+/, ''));
    expect(below[0]).toBe(
      'compaction: turns 1-2 (11 messages) replaced by a summary: 13100 -> 2900 tokens (limit 15000), 1 summary call',
    );
    expect(below[1]).toBe('handle: h-9d02');
    expect(below[2]).toMatch(
      /^summary: The user asked for a report on the logs\. The parser fails.*--full to show all\)$/,
    );
    expect(lines[at + 4]).toContain('llm local:m');
    const full = renderSessionRecord(recordOf(session([node])), { full: true });
    expect(full).toContain(run.summary!.split('\n')[1]!.trim());
  });

  it('prints a failed compaction with why, and no tokens when no summary call answered', () => {
    const failed = compactionNode({
      status: 'failed',
      compaction: {
        ...run,
        outcome: 'failed',
        afterTokens: 13_100,
        handle: undefined,
        summary: undefined,
        calls: 2,
        error: 'the summary does not fit',
        exhausted: true,
      },
    });
    const lines = renderSessionRecord(recordOf(session([failed])), { full: false }).split('\n');
    const at = lines.findIndex((line) => line.includes('compaction 1'));
    expect(lines[at]).not.toContain('tokens');
    expect(lines[at + 1]?.replace(/^[│ ]+/, '')).toBe(
      'compaction failed after 2 summary calls: the summary does not fit (compaction off for the rest of the session)',
    );
  });
});
