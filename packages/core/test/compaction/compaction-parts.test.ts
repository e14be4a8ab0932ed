import type { ConversationMessage } from '@agent/protocol';
import { describe, expect, test } from 'vitest';
import { initialCompactionState, planCompaction } from '../../src/compaction/plan.js';
import { summaryMessages } from '../../src/compaction/summary-input.js';
import { ContextGuard } from '../../src/context/context-guard.js';
import { TokenEstimator } from '../../src/context/token-estimator.js';

const call = (id: string): ConversationMessage => ({
  role: 'assistant',
  content: '',
  toolCalls: [{ id, name: 'fetch', arguments: {} }],
});
const result = (id: string): ConversationMessage => ({
  role: 'tool',
  toolCallId: id,
  toolName: 'fetch',
  content: `r${id}`,
});

const opening: ConversationMessage[] = [
  { role: 'system', content: 'sys' },
  { role: 'user', content: 'the request' },
];
// Four turns: one with two calls, one with a notice after its result.
const conversation: ConversationMessage[] = [
  ...opening,
  call('a'),
  result('a'),
  {
    role: 'assistant',
    content: '',
    toolCalls: [
      { id: 'b', name: 'fetch', arguments: {} },
      { id: 'c', name: 'fetch', arguments: {} },
    ],
  },
  result('b'),
  result('c'),
  call('d'),
  result('d'),
  { role: 'user', content: 'a notice' },
  call('e'),
  result('e'),
];

describe('the compaction planner', () => {
  test('the head is everything before the first model answer', () => {
    expect(initialCompactionState(conversation).head).toBe(2);
  });

  test('cuts at the start of the kept turns, so every call stays with its results', () => {
    const plan = planCompaction(conversation, initialCompactionState(conversation), 2)!;
    expect(plan).toMatchObject({ start: 2, end: 7, fromTurn: 1, toTurn: 2, previous: undefined });
    expect(plan.replaced).toEqual(conversation.slice(2, 7));
    expect(conversation[plan.end]).toMatchObject({ role: 'assistant' });
  });

  test('nothing to compact when no whole turn lies beyond the kept ones', () => {
    expect(planCompaction(conversation, initialCompactionState(conversation), 4)).toBeUndefined();
    expect(planCompaction(opening, initialCompactionState(opening), 1)).toBeUndefined();
  });

  test('a rolling summary: the previous summary is replaced with the turns after it, turns numbered on', () => {
    const summary: ConversationMessage = {
      role: 'user',
      content: '[Context compacted] ...',
      cacheBreakpoint: true,
    };
    const compacted = [...opening, summary, ...conversation.slice(7)];
    const state = {
      head: 2,
      count: 1,
      exhausted: false,
      summarized: true,
      ranges: [{ handle: 'h1', fromTurn: 1, toTurn: 2 }],
    };
    const plan = planCompaction(compacted, state, 1)!;
    expect(plan).toMatchObject({ start: 2, fromTurn: 3, toTurn: 3, previous: summary });
    expect(plan.replaced[0]).toBe(summary);
    expect(compacted[plan.end]).toEqual(call('e'));
  });
});

describe('the summarizer view', () => {
  const estimator = new TokenEstimator();
  const count = (text: string) => estimator.text(text);

  test('fits the budget: long messages clipped in the middle with a note naming the handle', () => {
    const long = 'alpha '.repeat(5000);
    const messages = summaryMessages({
      request: 'the request',
      previous: undefined,
      messages: [call('a'), { ...result('a'), content: long }, { role: 'user', content: 'short' }],
      fromTurn: 1,
      toTurn: 1,
      handle: 'H1',
      budget: 1500,
      count,
    });
    const total = messages.reduce((sum, m) => sum + count(m.content), 0);
    expect(total).toBeLessThanOrEqual(1500);
    const view = messages[1]!.content;
    expect(view).toContain('the request');
    expect(view).toContain('short');
    expect(view).toMatch(/\[\.\.\. \d+ characters left out: in the transcript behind handle H1 \.\.\.\]/);
  });

  test('a clipped message never splits a surrogate pair (a lone half is not valid UTF-8 on the wire)', () => {
    for (const pad of ['', 'x', 'xy']) {
      const view = summaryMessages({
        request: undefined,
        previous: undefined,
        messages: [call('a'), { ...result('a'), content: pad + '😀'.repeat(4000) }],
        fromTurn: 1,
        toTurn: 1,
        handle: 'H3',
        budget: 700,
        count,
      })[1]!.content;
      expect(view).toContain('characters left out');
      // A lone surrogate has no UTF-8 form: encoding replaces it with U+FFFD.
      expect(new TextDecoder().decode(new TextEncoder().encode(view))).toBe(view);
    }
  });

  test('too many messages for the budget: the oldest are left out with a note', () => {
    const many = Array.from({ length: 200 }, (_, i) => result(`m${i}`));
    const view = summaryMessages({
      request: undefined,
      previous: 'the summary before',
      messages: many,
      fromTurn: 1,
      toTurn: 100,
      handle: 'H2',
      budget: 2000,
      count,
    })[1]!.content;
    expect(view).toMatch(/\[\d+ earlier messages left out: in the transcript behind handle H2\]/);
    expect(view).toContain('the summary before');
    expect(view).toContain('rm199');
    expect(view).not.toContain('rm0\n');
  });
});

describe('ContextGuard.reset', () => {
  test('the running total is rebuilt from the new conversation', () => {
    const estimator = new TokenEstimator();
    const guard = new ContextGuard(undefined, 0, (m) => estimator.rawMessages(m));
    for (const message of conversation) guard.add(message);
    const full = guard.rawConversationTokens;
    guard.reset(opening);
    expect(guard.rawConversationTokens).toBe(estimator.rawMessages(opening));
    expect(guard.rawConversationTokens).toBeLessThan(full);
    guard.add(call('z'));
    expect(guard.rawConversationTokens).toBe(estimator.rawMessages([...opening, call('z')]));
  });
});
