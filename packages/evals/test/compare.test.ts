// Decision 5 of issue 40: a replay is compared record against record, nonce normalised, and
// each --compare mode counts what the ones before it count and more.
import type { TapeToolCall } from '@agent/protocol';
import { describe, expect, test } from 'vitest';
import { createAnswerSource, recordedAnswer } from '../src/replay/answer-source.js';
import { compareRecords, countedDivergences } from '../src/replay/compare.js';
import { renderRequest } from '../src/replay/normalise.js';
import { assertReplayable } from '../src/replay/record-tapes.js';
import { createToolReplay } from '../src/replay/tool-replay.js';
import { record, tape } from './tape-fixtures.js';

const answered = { answer: { text: 'ok', toolCalls: [] } };
const toolCall = (name: string, args: Record<string, unknown>, callId = 'c1'): TapeToolCall => ({
  callId,
  name,
  provider: 'calc',
  kind: 'rest',
  arguments: args,
  result: { ok: true, text: `${name} done` },
  startedAt: 0,
  durationMs: 1,
});

describe('compareRecords', () => {
  test('two runs that differ only in their nonce match under every mode', () => {
    const a = record(tape('lead', 'aaaa1111', [answered]), 'four <ai-agent-aaaa1111-FINAL>');
    const b = record(tape('lead', 'bbbb2222', [answered]), 'four <ai-agent-bbbb2222-FINAL>');
    for (const mode of ['report', 'calls', 'requests'] as const)
      expect(compareRecords(a, b, mode)).toEqual([]);
  });

  test('a changed system prompt is a request diff under requests only; the same report still matches', () => {
    const before = tape('lead', 'n1', [answered, answered]);
    const after = tape('lead', 'n2', [answered, answered]);
    after.messages[0] = { role: 'system', content: 'Be very brief. End with <ai-agent-n2-FINAL>.' };
    const a = record(before, 'four');
    const b = record(after, 'four');
    expect(compareRecords(a, b, 'report')).toEqual([]);
    expect(compareRecords(a, b, 'calls')).toEqual([]);
    const [divergence, ...rest] = compareRecords(a, b, 'requests');
    expect(rest).toEqual([]);
    expect(divergence).toMatchObject({ kind: 'request', session: 'lead#0', call: 0 });
    expect(divergence?.message).toBe(
      'lead#0: model request 1 differs from the record (+1 -1 lines); 1 later request differs too',
    );
    const diff = (divergence as { diff: string }).diff;
    expect(diff).toContain('-  Be brief. End with <ai-agent-<NONCE>-FINAL>.');
    expect(diff).toContain('+  Be very brief. End with <ai-agent-<NONCE>-FINAL>.');
  });

  test('a different report and exit marker count under report', () => {
    const a = record(tape('lead', 'n1', [answered]), 'four');
    const b = {
      ...record(tape('lead', 'n2', [answered]), 'five'),
      exitCode: 'EXIT-NO-LLM-RESPONSE' as const,
    };
    const divergences = compareRecords(a, b, 'report');
    expect(divergences.map((d) => d.kind)).toEqual(['outcome', 'report']);
    expect(divergences[0]?.message).toBe(
      'the replay ended with EXIT-NO-LLM-RESPONSE, the record with EXIT-FINAL-ANSWER',
    );
    expect((divergences[1] as { diff: string }).diff).toContain('+  "content": "five"');
  });

  test('tool calls and sessions count from calls up', () => {
    const before = tape('lead', 'n1', [answered]);
    before.toolCalls = [toolCall('calc', { a: 1 })];
    const after = tape('lead', 'n2', [answered]);
    after.toolCalls = [toolCall('calc', { a: 2 })];
    const a = record(before, 'four', [tape('lead.helper', 'h1')]);
    const b = record(after, 'four');
    expect(compareRecords(a, b, 'report')).toEqual([]);
    const divergences = compareRecords(a, b, 'calls');
    expect(divergences.map((d) => d.message)).toEqual([
      'lead#0: tool call 1: recorded calc {"a":1}, replayed calc {"a":2}',
      'lead.helper#0: the replay did not run this session',
    ]);
  });
});

describe('countedDivergences', () => {
  test('keeps the kinds the mode counts, each once', () => {
    const call = { kind: 'call' as const, session: 'lead#0', index: 0, message: 'x' };
    const exhausted = { kind: 'exhausted' as const, session: 'lead#0', call: 3, message: 'y' };
    expect(countedDivergences('report', [call, exhausted], [call])).toEqual([exhausted]);
    expect(countedDivergences('calls', [call, exhausted], [{ ...call, message: 'again' }])).toEqual([
      call,
      exhausted,
    ]);
  });
});

describe('the answer source', () => {
  test('answers each session scope in order, the nonce as {{NONCE}}, recorded ids, usage and errors', () => {
    const lead = tape('lead', 'oldnonce42', [
      { error: { message: 'slow down', kind: 'rate_limit', status: 429 } },
      {
        answer: {
          text: 'done <ai-agent-oldnonce42-FINAL format="markdown">4</ai-agent-oldnonce42-FINAL>',
          toolCalls: [{ id: 'call_9', name: 'calc', arguments: '{"a": 1}' }],
          usage: { inputTokens: 1234, outputTokens: 5, totalTokens: 1239 },
          stopReason: 'tool_calls',
        },
      },
    ]);
    const source = createAnswerSource(new Map([['lead#0', lead]]));
    const request = {
      api: 'openai-chat' as const,
      model: 'm',
      messages: [],
      tools: [],
      options: {},
      scope: 'lead#0',
    };
    expect(source.answer(request)).toEqual({
      error: { kind: 'rate_limit', message: 'slow down', status: 429 },
    });
    expect(source.answer(request)).toEqual({
      text: 'done <ai-agent-{{NONCE}}-FINAL format="markdown">4</ai-agent-{{NONCE}}-FINAL>',
      toolCalls: [{ id: 'call_9', name: 'calc', arguments: '{"a": 1}' }],
      usage: { inputTokens: 1234, outputTokens: 5, totalTokens: 1239 },
      stopReason: 'tool_calls',
    });
    expect(source.answer(request).error?.message).toBe(
      'agent replay: the record has no model call 3 for session lead#0 (it has 2)',
    );
    expect(source.answer({ ...request, scope: 'lead.other#0' }).error?.kind).toBe('bad_request');
    expect(source.divergences.map((d) => [d.kind, d.message])).toEqual([
      ['exhausted', 'lead#0: the replay asked for model call 3, the record has 2'],
      ['session', 'lead.other#0: the replay ran a session the record does not have'],
    ]);
  });

  test('an unknown error kind is replayed as a server error', () => {
    expect(
      recordedAnswer(
        { ...tape('x', 'n', [{}]).calls[0]!, error: { message: 'boom', kind: 'weird' } },
        undefined,
      ),
    ).toEqual({
      error: { kind: 'server', message: 'boom' },
    });
  });
});

describe('the tool replay', () => {
  test('answers by call id, then name; other arguments and unrecorded calls are divergences', async () => {
    const lead = tape('lead', 'n');
    lead.toolCalls = [toolCall('calc', { a: 1 }, 'c1'), toolCall('calc', { a: 2 }, 'c2')];
    const replay = createToolReplay(new Map([['lead#0', lead]]));
    const context = { session: { agentPath: 'lead', ordinal: 0 }, sessionId: 's', provider: 'calc' };
    expect(await replay.toolCall({ name: 'calc', arguments: { a: 2 }, callId: 'c2' }, context)).toEqual({
      ok: true,
      text: 'calc done',
    });
    expect(await replay.toolCall({ name: 'calc', arguments: { a: 9 }, callId: 'zz' }, context)).toEqual({
      ok: true,
      text: 'calc done',
    });
    expect(await replay.toolCall({ name: 'calc', arguments: { a: 1 }, callId: 'c3' }, context)).toMatchObject(
      {
        ok: false,
        error: { message: 'agent replay: no recorded result for calc (call c3)' },
      },
    );
    expect(replay.divergences.map((d) => d.message)).toEqual([
      'lead#0: tool call 2 calc has other arguments than recorded (the recorded result was returned)',
      'lead#0: tool call 3 calc has no recorded result',
    ]);
  });
});

describe('replayable records', () => {
  test('a version 1 record, or one whose payloads were dropped, is refused saying why and what to do', () => {
    const v2 = record(tape('lead', 'n', [answered]), 'four');
    expect(() => assertReplayable({ ...v2, version: 1 }, 'old.json.gz', undefined)).toThrow(
      /old\.json\.gz: cannot replay: it is a version 1 session record, which keeps no model requests or answers; record the session again/,
    );
    expect(() => assertReplayable({ ...v2, payloadsDropped: 'over 16 MiB' }, 'big', undefined)).toThrow(
      /payloads .* were dropped \(over 16 MiB\)/,
    );
    expect(() => assertReplayable(v2, 'ok', undefined)).not.toThrow();
  });

  test('a malformed tape is refused before anything runs, saying where', () => {
    const broken = tape('lead', 'n1', [answered]);
    broken.calls[0]!.messages = [0, 99];
    expect(() => assertReplayable(record(broken, 'four'), 'bad.json.gz', undefined)).toThrow(
      'bad.json.gz: cannot replay: it is malformed: model call 1 of lead points at messages or tools the tape does not have',
    );
    const odd = tape('lead', 'n1', [{ answer: { text: 'ok', toolCalls: [] } }]);
    // Arguments as an object, where a tape keeps the raw text.
    (odd.calls[0]!.answer!.toolCalls as unknown[]).push({ id: 'c', name: 'x', arguments: {} });
    expect(() => assertReplayable(record(odd, 'four'), 'odd', undefined)).toThrow(
      'model call 1 of lead has a malformed answer',
    );
  });

  test('a request renders its model, options, tools and messages with the nonce normalised', () => {
    const t = tape('lead', 'zz99', [answered]);
    expect(renderRequest(t, t.calls[0]!)).toBe(
      [
        'model: test/m',
        'options: {\n  "stream": true\n}',
        'tool calc: adds',
        '  {\n    "properties": {\n      "a": {\n        "type": "number"\n      }\n    },\n    "type": "object"\n  }',
        '[0] system:',
        '  Be brief. End with <ai-agent-<NONCE>-FINAL>.',
        '[1] user:',
        '  What is 2+2?',
        '',
      ].join('\n'),
    );
  });

  test('tool-call arguments render canonically, raw text or parsed alike; unparsed ones raw', () => {
    const t = tape('lead', 'n', [answered]);
    const assistant = (call: Record<string, unknown>) => ({
      role: 'assistant' as const,
      content: '',
      toolCalls: [{ id: 'c1', name: 'calc', arguments: { b: 2, a: 1 }, ...call }],
    });
    t.messages.push(assistant({ rawArguments: '{ "b": 2,  "a": 1 }' }), assistant({}));
    t.messages.push(assistant({ arguments: {}, rawArguments: '{oops', parseError: 'not JSON' }));
    const rendered = (index: number) => renderRequest(t, { ...t.calls[0]!, messages: [index] });
    expect(rendered(2)).toBe(rendered(3));
    expect(rendered(2)).toContain('"a": 1');
    expect(rendered(4)).toContain('  call calc c1 {oops');
  });
});
