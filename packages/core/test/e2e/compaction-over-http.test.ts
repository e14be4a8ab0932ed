import type { AgentEvent } from '@agent/protocol';
import { finalReport, type RecordedRequest } from '@agent/testkit';
import { describe, expect, test } from 'vitest';
import {
  extractionText,
  isSessionTurn,
  isSummaryCall,
  longSession,
  pageText,
  prefixThroughSummary,
  SHAPES,
  type Shape,
  scriptedServer,
  summaryHandle,
  summaryIn,
  wirePairing,
} from '../helpers/compaction-http.js';

// Issue 39's acceptance over real HTTP: compaction through the official clients against the
// strict testkit server, which refuses a request the real API would refuse.

const sessionTurns = (requests: readonly RecordedRequest[]) => requests.filter(isSessionTurn);

describe('tool-call/result pairing holds across compaction', () => {
  test.each(SHAPES)(
    '%s: a long session with parallel calls compacts twice or more and reaches its report',
    async (shape: Shape) => {
      const server = await scriptedServer({ turns: 14 });
      const { result, compactions } = await longSession(server, shape);

      expect(result.success).toBe(true);
      expect(result.finalReport?.content).toBe('Report after 14 turns.');
      expect(compactions.filter((c) => c.outcome === 'compacted').length).toBeGreaterThanOrEqual(2);
      // Every request the server received was accepted by its strict rules.
      expect(server.requests.filter((r) => r.rejected !== undefined).map((r) => r.rejected)).toEqual([]);
      // In every request, each call has its result and each result its call.
      for (const request of server.requests) {
        const { calls, results } = wirePairing(request);
        expect(results, `request to ${request.route}`).toEqual(calls);
      }
      // The pairs really moved out of the window: turn 1's calls are gone from the last request.
      const last = sessionTurns(server.requests).at(-1)!;
      expect(wirePairing(last).calls).not.toContain('call_1a');
      expect(wirePairing(last).calls.length).toBeGreaterThan(0);
    },
  );
});

describe('a compacted handle expands to the original text', () => {
  test('the model calls tool_output with the summary handle; the extraction sees turn 1 as it was', async () => {
    const extractions: RecordedRequest[] = [];
    let handle = '';
    const server = await scriptedServer({
      turns: 14,
      turn: (request, turn) => {
        const summary = summaryIn(request);
        if (summary === undefined || handle !== '') return undefined;
        handle = summaryHandle(summary);
        return {
          toolCalls: [
            {
              id: `call_expand_${turn}`,
              name: 'tool_output',
              arguments: { handle, extract: 'the text of page 1a, verbatim', mode: 'full-chunked' },
            },
          ],
        };
      },
      extraction: (request) => {
        extractions.push(request);
        return { text: extractionText('Page 1a says 1a-fact-7 measured 57 units.') };
      },
    });
    const { result } = await longSession(server, 'openai');

    expect(result.success).toBe(true);
    expect(handle).not.toBe('');
    // The extraction read the transcript behind the handle: turn 1's tool result, whole.
    const seen = extractions.map((r) => r.messages.map((m) => m.content).join('\n')).join('\n');
    expect(seen).toContain(pageText('1a'));
    expect(seen).toContain(pageText('1b'));
    // And the model got the extraction back as the tool result of its call.
    const expansion = server.requests
      .flatMap((r) => r.messages)
      .find((m) => m.role === 'tool' && m.toolName === 'tool_output');
    expect(expansion?.content).toContain(handle);
    expect(expansion?.content).toContain('Page 1a says 1a-fact-7 measured 57 units.');
    // The session's own requests no longer held page 1a when it asked.
    const asked = sessionTurns(server.requests).find((r) => JSON.stringify(r.body).includes('call_expand_'));
    expect(JSON.stringify(asked?.body)).not.toContain('1a-fact-0 measured');
  });
});

describe('a failing summary call falls back to the forced final turn', () => {
  test.each([
    ['a 500', { error: { kind: 'server' as const, message: 'summary backend down' } }],
    ['a malformed stream', { fault: 'malformed-sse' as const }],
  ])(
    'the summary call answers %s: the session ends on the forced final turn with its report',
    async (_name, failure) => {
      const server = await scriptedServer({ turns: 60, summary: () => failure });
      const { result, events, compactions } = await longSession(server, 'openai');

      expect(result.success).toBe(true);
      expect(result.exitCode).toBe('EXIT-FINAL-ANSWER');
      expect(result.finalReport?.content).toMatch(/^Report after \d+ turns\.$/);
      const started = events.filter(
        (e): e is Extract<AgentEvent, { type: 'turn_started' }> => e.type === 'turn_started',
      );
      expect(started.at(-1)).toMatchObject({ isFinalTurn: true, forcedFinalReason: 'context' });
      // One compaction, failed after its two attempts, and never tried again (no loop).
      expect(compactions).toHaveLength(1);
      expect(compactions[0]).toMatchObject({ outcome: 'failed', exhausted: true, calls: 2 });
      expect(server.requests.filter(isSummaryCall)).toHaveLength(2);
      // The conversation was never compacted.
      expect(sessionTurns(server.requests).some((r) => summaryIn(r) !== undefined)).toBe(false);
    },
  );
});

describe('the prompt prefix is byte-stable after a compaction', () => {
  test.each(['openai', 'anthropic'] as const)(
    '%s: two requests after a compaction send the same bytes up to the summary',
    async (shape) => {
      const server = await scriptedServer({ turns: 14 });
      const { result, compactions } = await longSession(server, shape);
      expect(result.success).toBe(true);

      const turns = sessionTurns(server.requests);
      const withSummary = turns.filter((r) => summaryIn(r) !== undefined);
      const compacted = compactions.filter((c) => c.outcome === 'compacted');
      expect(compacted.length).toBeGreaterThanOrEqual(2);
      // Group the requests by the summary they carry; each group is one stretch between compactions.
      const bySummary = new Map<string, RecordedRequest[]>();
      for (const request of withSummary) {
        const key = summaryIn(request)!;
        bySummary.set(key, [...(bySummary.get(key) ?? []), request]);
      }
      expect(bySummary.size).toBe(compacted.length);
      const stretches = [...bySummary.values()].filter((group) => group.length >= 2);
      expect(stretches.length).toBeGreaterThanOrEqual(1);
      for (const group of stretches) {
        const [first, ...rest] = group.map(prefixThroughSummary);
        for (const prefix of rest) expect(prefix).toBe(first);
      }
      if (shape === 'anthropic') {
        // The cache breakpoint sits on the summary block (it moved with the summary).
        for (const request of withSummary) {
          const messages = (request.body as { messages: { content: unknown }[] }).messages;
          const summary = messages.find((m) => JSON.stringify(m.content).includes('[Context compacted]'))!;
          const blocks = summary.content as { cache_control?: unknown }[];
          expect(Array.isArray(blocks)).toBe(true);
          expect(blocks.at(-1)?.cache_control).toEqual({ type: 'ephemeral' });
        }
      }
    },
  );
});

// The report is never lost: compaction never runs on a final turn (pinned by the first describe
// reaching its report); here, a session whose report turn follows a compaction still ends with it.
test('the turn after a compaction can be the report', async () => {
  let sawSummary = false;
  const server = await scriptedServer({
    turns: 60,
    turn: (request) => {
      if (summaryIn(request) === undefined || sawSummary) return undefined;
      sawSummary = true;
      return finalReport('Report right after the compaction.');
    },
  });
  const { result, compactions } = await longSession(server, 'anthropic');
  expect(result.success).toBe(true);
  expect(result.finalReport?.content).toBe('Report right after the compaction.');
  expect(compactions).toHaveLength(1);
});
