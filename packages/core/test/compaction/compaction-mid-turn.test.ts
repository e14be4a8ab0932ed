import type { CompactionRun } from '@agent/protocol';
import type { RecordedRequest, ScriptedAnswer, ScriptStep } from '@agent/testkit';
import { describe, expect, test } from 'vitest';
import { memoryTools } from '../helpers/memory-tools.js';
import { llmEntries, runScenario, type ScenarioRun, toolEntries, xmlReport } from '../helpers/scenario.js';
import { isSummaryCall, memoryStore, pairingProblems, payload } from './compaction-helpers.js';

const runsOf = (run: ScenarioRun): CompactionRun[] =>
  run.events.flatMap((e) => (e.event.type === 'compaction' ? [e.event.run] : []));
const turnRequests = (run: ScenarioRun) => run.models[0]!.requests.filter((r) => !isSummaryCall(r));
const summaryRequests = (run: ScenarioRun) => run.models[0]!.requests.filter(isSummaryCall);
const started = (run: ScenarioRun) =>
  run.events.flatMap((e) => (e.event.type === 'turn_started' ? [e.event] : []));
const dropped = (run: ScenarioRun) =>
  run.result.conversation.flatMap((m) =>
    m.role === 'tool' && m.content === '(tool failed: context window budget exceeded)' ? [m.toolCallId] : [],
  );

const pageText = (page: number, tokens: number) => `page ${page}: ${payload(page, tokens)}`;

/** Page n is about `sizes[n - 1]` tokens. */
const pagesTool = (sizes: readonly number[]) =>
  memoryTools('web', { fetch: (args) => pageText(Number(args.page), sizes[Number(args.page) - 1]!) });

/**
 * A model that fetches pages 1..`single` one a turn, then all the other pages in one answer
 * (parallel calls), then reports; offered no fetch (a final turn), it reports what it has.
 */
function parallelSession(single: number, parallel: number, summary: () => ScriptedAnswer): ScriptStep[] {
  let turns = 0;
  const step: ScriptStep = (request: RecordedRequest) => {
    if (isSummaryCall(request)) return summary();
    turns++;
    if (!request.tools.some((t) => t.name === 'fetch'))
      return { text: xmlReport(`final-turn report after ${turns - 1} turns`) };
    if (turns <= single)
      return { toolCalls: [{ id: `call-${turns}`, name: 'fetch', arguments: { page: turns } }] };
    if (turns === single + 1) {
      const pages = Array.from({ length: parallel }, (_, i) => turns + i);
      return { toolCalls: pages.map((page) => ({ id: `call-${page}`, name: 'fetch', arguments: { page } })) };
    }
    return { text: xmlReport(`report after ${turns - 1} turns`) };
  };
  return Array.from({ length: 20 }, () => step);
}

const SUMMARY: ScriptedAnswer = { text: 'Pages 1 and 2 were fetched.' };

/**
 * Three pages of ~700 tokens, one a turn, then three more in parallel in a 6000-token window
 * (limit 5744): the fourth turn's results overflow it, while the request between turns stays
 * under `at` (0.95), so only a tool result can make a compaction run.
 */
function session(
  sizes: readonly number[],
  options: { compaction?: boolean; summary?: () => ScriptedAnswer } = {},
) {
  return runScenario({
    contextWindow: 6000,
    maxTurns: 20,
    ...(options.compaction === false ? {} : { compaction: { at: 0.95, keep: 2 } }),
    toolOutput: memoryStore().factory,
    tools: [pagesTool(sizes)],
    scripts: [parallelSession(3, sizes.length - 3, options.summary ?? (() => SUMMARY))],
  });
}
const FITS_AFTER_COMPACTION = [700, 700, 700, 400, 400, 400];

describe('compaction inside a turn (a tool result that does not fit)', () => {
  test('parallel results that overflow the window: compacted mid-turn, all admitted, no forced final turn, the report reached', async () => {
    const run = await session(FITS_AFTER_COMPACTION);
    expect(runsOf(run)).toEqual([
      expect.objectContaining({
        trigger: 'tool_result',
        outcome: 'compacted',
        turn: 4,
        fromTurn: 1,
        toTurn: 2,
      }),
    ]);
    const [compaction] = runsOf(run);
    expect(compaction!.afterTokens).toBeLessThan(compaction!.beforeTokens);
    expect(dropped(run)).toEqual([]);
    expect(toolEntries(run.result).filter((e) => e.status !== 'ok')).toEqual([]);
    expect(started(run).every((e) => !e.isFinalTurn)).toBe(true);
    expect(run.result.finalReport?.content).toBe('report after 4 turns');
    // The request after the compaction: the summary after the prompt, then turn 3, then turn 4
    // with its three calls, each followed by its whole result, then the turn's notice.
    const last = turnRequests(run).at(-1)!;
    expect(last.messages.map((m) => m.role)).toEqual([
      'user',
      'user',
      'assistant',
      'tool',
      'assistant',
      'tool',
      'tool',
      'tool',
      'user',
    ]);
    expect(last.messages[1]!.content).toContain(`call tool_output with handle "${compaction!.handle}"`);
    const results = last.messages.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(results).toEqual([3, 4, 5, 6].map((page) => pageText(page, FITS_AFTER_COMPACTION[page - 1]!)));
    for (const request of turnRequests(run)) expect(pairingProblems(request.messages)).toEqual([]);
  });

  test('it runs inside the turn: after the turn’s model call, before the next turn starts; the summary call is accounted', async () => {
    const run = await session(FITS_AFTER_COMPACTION);
    const requests = run.models[0]!.requests;
    expect(requests.map(isSummaryCall)).toEqual([false, false, false, false, true, false]);
    const types = run.events.map((e) => e.event.type);
    const at = types.indexOf('compaction');
    expect(started(run)).toHaveLength(5);
    const turnStarts = run.events.flatMap((e, i) => (e.event.type === 'turn_started' ? [i] : []));
    expect(at).toBeGreaterThan(turnStarts[3]!);
    expect(at).toBeLessThan(turnStarts[4]!);
    expect(llmEntries(run.result).filter((e) => e.purpose === 'compaction')).toEqual([
      expect.objectContaining({ status: 'ok', turn: 4 }),
    ]);
    const node = run.result.opTree!.children.find((c) => c.kind === 'compaction');
    expect(node?.compaction).toEqual(runsOf(run)[0]);
    const line = run.result.logs.find((l) => l.remoteIdentifier === 'agent:compaction');
    expect(line).toMatchObject({ severity: 'VRB' });
  });

  test('without compaction the same session drops a result and is forced to its final turn; until then its requests are the same bytes', async () => {
    const off = await session(FITS_AFTER_COMPACTION, { compaction: false });
    expect(runsOf(off)).toEqual([]);
    expect(dropped(off)).not.toEqual([]);
    expect(started(off).at(-1)).toMatchObject({ isFinalTurn: true, forcedFinalReason: 'context' });
    expect(off.result.finalReport?.content).toBe('final-turn report after 4 turns');
    const on = await session(FITS_AFTER_COMPACTION);
    const bytes = (run: ScenarioRun) =>
      turnRequests(run)
        .slice(0, 4)
        .map((r) => JSON.stringify(r));
    expect(bytes(on)).toEqual(bytes(off));
  });

  test('several results still overflowing after it: one compaction in the turn, the rest dropped as without compaction, the report reached', async () => {
    const run = await session([700, 700, 700, 1500, 1500, 1500]);
    expect(runsOf(run)).toEqual([
      expect.objectContaining({ trigger: 'tool_result', outcome: 'compacted', turn: 4 }),
    ]);
    expect(summaryRequests(run)).toHaveLength(1);
    expect(dropped(run)).toEqual(['call-5', 'call-6']);
    expect(started(run).at(-1)).toMatchObject({ isFinalTurn: true, forcedFinalReason: 'context' });
    expect(run.result.success).toBe(true);
    expect(run.result.finalReport?.content).toBe('final-turn report after 4 turns');
    for (const request of turnRequests(run)) expect(pairingProblems(request.messages)).toEqual([]);
  });

  test('a failing summary inside the turn: failed and exhausted, the result dropped, the forced final turn gives the report', async () => {
    const run = await session(FITS_AFTER_COMPACTION, { summary: () => ({ error: { kind: 'server' } }) });
    expect(runsOf(run)).toEqual([
      expect.objectContaining({
        trigger: 'tool_result',
        outcome: 'failed',
        exhausted: true,
        calls: 2,
        turn: 4,
      }),
    ]);
    expect(runsOf(run)[0]!.error).toContain('every summary call failed');
    expect(dropped(run)).toEqual(['call-6']);
    const drop = toolEntries(run.result).find((e) => e.error === 'context_budget_exceeded');
    expect(drop?.callId).toBe('call-6');
    expect(started(run).at(-1)).toMatchObject({ isFinalTurn: true, forcedFinalReason: 'context' });
    expect(run.result.success).toBe(true);
    expect(run.result.finalReport?.content).toBe('final-turn report after 4 turns');
    for (const request of turnRequests(run))
      expect(request.messages.some((m) => m.content.startsWith('[Context compacted]'))).toBe(false);
    const guardLines = run.result.logs.filter((l) => l.remoteIdentifier === 'agent:context-guard:fetch');
    expect(guardLines).toHaveLength(1);
  });

  test('a result no compaction could make room for: no summary call, dropped as without compaction', async () => {
    const run = await session([700, 700, 700, 9000]);
    expect(runsOf(run)).toEqual([]);
    expect(summaryRequests(run)).toEqual([]);
    expect(dropped(run)).toEqual(['call-4']);
    expect(started(run).at(-1)).toMatchObject({ isFinalTurn: true, forcedFinalReason: 'context' });
    expect(run.result.finalReport?.content).toBe('final-turn report after 4 turns');
  });

  test('results beside a committed report: no compaction (the session ends with the report), dropped as without it', async () => {
    const sizes = [700, 700, 700, 1500];
    let turns = 0;
    const step: ScriptStep = (request) => {
      if (isSummaryCall(request)) return SUMMARY;
      turns++;
      if (turns <= 3)
        return { toolCalls: [{ id: `call-${turns}`, name: 'fetch', arguments: { page: turns } }] };
      return {
        text: xmlReport('the report, page 4 fetched beside it'),
        toolCalls: [{ id: 'call-4', name: 'fetch', arguments: { page: 4 } }],
      };
    };
    const run = await runScenario({
      contextWindow: 6000,
      compaction: { at: 0.95, keep: 2 },
      toolOutput: memoryStore().factory,
      tools: [pagesTool(sizes)],
      scripts: [Array.from({ length: 6 }, () => step)],
    });
    expect(runsOf(run)).toEqual([]);
    expect(summaryRequests(run)).toEqual([]);
    expect(dropped(run)).toEqual(['call-4']);
    expect(run.result.success).toBe(true);
    expect(run.result.finalReport?.content).toBe('the report, page 4 fetched beside it');
  });
});
