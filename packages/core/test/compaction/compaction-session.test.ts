import type { CompactionRun } from '@agent/protocol';
import { describe, expect, test } from 'vitest';
import { renderTranscript } from '../../src/compaction/transcript.js';
import { llmEntries, runScenario, type ScenarioRun, xmlReport } from '../helpers/scenario.js';
import { handleIn } from '../helpers/tool-output.js';
import { fetchTool, isSummaryCall, longSession, memoryStore, pairingProblems } from './compaction-helpers.js';

const runsOf = (run: ScenarioRun): CompactionRun[] =>
  run.events.flatMap((e) => (e.event.type === 'compaction' ? [e.event.run] : []));
const turnRequests = (run: ScenarioRun) => run.models[0]!.requests.filter((r) => !isSummaryCall(r));
const summaryRequests = (run: ScenarioRun) => run.models[0]!.requests.filter(isSummaryCall);

/** Twelve fetches of ~400 tokens in a 6000-token window: the context fills after about five. */
function longRun(compaction: boolean, summary?: Parameters<typeof longSession>[1], store = memoryStore()) {
  const model = longSession(12, summary);
  return runScenario({
    contextWindow: 6000,
    maxTurns: 40,
    ...(compaction ? { compaction: { keep: 2, attempts: 2 } } : {}),
    toolOutput: store.factory,
    tools: [fetchTool(400)],
    scripts: [model.steps],
  }).then((run) => ({ run, store }));
}

describe('compaction in a session', () => {
  test('a long session in a small window compacts, keeps going and reaches its report', async () => {
    const { run } = await longRun(true);
    expect(run.result.success).toBe(true);
    expect(run.result.finalReport?.content).toBe('report after 12 pages');
    const runs = runsOf(run);
    expect(runs.length).toBeGreaterThanOrEqual(2);
    expect(runs.every((c) => c.outcome === 'compacted' && c.afterTokens < c.beforeTokens)).toBe(true);
    // No turn was forced final: every turn the model was offered its tools.
    const started = run.events.filter((e) => e.event.type === 'turn_started').map((e) => e.event);
    expect(started.every((e) => !('forcedFinalReason' in e))).toBe(true);
    const lines = run.result.logs.filter((l) => l.remoteIdentifier === 'agent:compaction');
    expect(lines.map((l) => l.severity)).toEqual(runs.map(() => 'VRB'));
    expect(lines[0]!.message).toContain(runs[0]!.handle);
  });

  test('the same session without compaction is forced to its final turn by the context', async () => {
    const { run } = await longRun(false);
    expect(runsOf(run)).toEqual([]);
    const started = run.events.filter((e) => e.event.type === 'turn_started').map((e) => e.event);
    expect(started.at(-1)).toMatchObject({ isFinalTurn: true, forcedFinalReason: 'context' });
    expect(run.result.finalReport?.content).toMatch(/^final-turn report/);
  });

  test('every request after a compaction has each tool call with its result', async () => {
    const { run } = await longRun(true);
    expect(runsOf(run).length).toBeGreaterThan(0);
    for (const request of turnRequests(run)) expect(pairingProblems(request.messages)).toEqual([]);
  });

  test('the summary call offers no tools, is accounted with purpose compaction, under the compaction node', async () => {
    const { run } = await longRun(true);
    const summaries = summaryRequests(run);
    expect(summaries.length).toBe(runsOf(run).length);
    for (const request of summaries) {
      expect(request.tools).toEqual([]);
      expect(request.options.maxOutputTokens).toBe(2048);
    }
    const entries = llmEntries(run.result).filter((e) => e.purpose === 'compaction');
    expect(entries).toHaveLength(summaries.length);
    const nodes = run.result.opTree!.children.filter((c) => c.kind === 'compaction');
    expect(nodes).toHaveLength(summaries.length);
    expect(nodes[0]!.children.map((c) => c.kind)).toEqual(['llm']);
    expect(nodes[0]!.children[0]!.accounting).toMatchObject({ purpose: 'compaction', status: 'ok' });
    expect(nodes[0]!.compaction).toEqual(runsOf(run)[0]);
  });

  test('the summary message names the handle, and the stored text is the transcript of exactly the replaced messages', async () => {
    const { run, store } = await longRun(true);
    const first = runsOf(run)[0]!;
    const requests = run.models[0]!.requests;
    const summaryAt = requests.findIndex(isSummaryCall);
    // The turn after the compaction: the summary message right after the head (the prompt).
    const after = requests[summaryAt + 1]!;
    const summary = after.messages[1]!;
    expect(summary).toMatchObject({ role: 'user', cacheBreakpoint: true });
    expect(summary.content).toContain(`call tool_output with handle "${first.handle}"`);
    expect(summary.content).toContain(first.summary);
    // The replaced messages were all in the request before the compaction, after the head.
    const before = requests[summaryAt - 1]!;
    const replaced = before.messages.slice(1, 1 + first.messages);
    expect(store.stored.get(first.handle!)?.text).toBe(renderTranscript(replaced));
    expect(store.stored.get(first.handle!)?.toolName).toBe('agent__compaction');
    // What was replaced is no longer sent; what follows it is.
    const sent = JSON.stringify(after.messages);
    for (const message of replaced) if (message.role === 'tool') expect(sent).not.toContain(message.content);
  });

  test('two requests after a compaction share their prefix byte for byte, up to the summary message', async () => {
    const { run } = await longRun(true);
    const requests = run.models[0]!.requests;
    const summaryAt = requests.findIndex(isSummaryCall);
    const [a, b] = [requests[summaryAt + 1]!, requests[summaryAt + 2]!];
    expect(isSummaryCall(b)).toBe(false);
    const prefix = (r: typeof a) => JSON.stringify(r.messages.slice(0, 2));
    expect(prefix(b)).toBe(prefix(a));
    expect(JSON.stringify(b.tools)).toBe(JSON.stringify(a.tools));
    expect(a.tools.map((t) => t.name)).toContain('tool_output');
  });
});

describe('compaction that fails', () => {
  test('a summary call failing every attempt: failed, exhausted, and the session ends through the forced final turn with its report', async () => {
    const { run } = await longRun(true, () => ({ error: { kind: 'server' } }));
    const runs = runsOf(run);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ outcome: 'failed', exhausted: true, calls: 2 });
    expect(runs[0]!.afterTokens).toBe(runs[0]!.beforeTokens);
    expect(summaryRequests(run)).toHaveLength(2);
    const failed = llmEntries(run.result).filter((e) => e.purpose === 'compaction');
    expect(failed.map((e) => e.status)).toEqual(['failed', 'failed']);
    const started = run.events.filter((e) => e.event.type === 'turn_started').map((e) => e.event);
    expect(started.at(-1)).toMatchObject({ isFinalTurn: true, forcedFinalReason: 'context' });
    expect(run.result.success).toBe(true);
    expect(run.result.finalReport?.content).toMatch(/^final-turn report/);
    const line = run.result.logs.find((l) => l.remoteIdentifier === 'agent:compaction');
    expect(line).toMatchObject({ severity: 'WRN' });
    expect(line?.message).toContain('every summary call failed');
  });

  test('an empty summary is a failed call, retried', async () => {
    let calls = 0;
    const { run } = await longRun(true, () => (++calls === 1 ? { text: '   ' } : { text: 'the summary' }));
    expect(runsOf(run)[0]).toMatchObject({ outcome: 'compacted', calls: 2 });
  });

  test('a summary too big to shrink the request fails and leaves the conversation as it was', async () => {
    const { run } = await longRun(true, () => ({ text: 'long '.repeat(6000) }));
    const runs = runsOf(run);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ outcome: 'failed', exhausted: true });
    expect(runs[0]!.error).toContain('does not fit');
    for (const request of turnRequests(run))
      expect(request.messages.some((m) => m.content.startsWith('[Context compacted]'))).toBe(false);
    expect(run.result.finalReport?.content).toMatch(/^final-turn report/);
  });

  test('a hook without storeText: compaction fails cleanly, the store named as the reason', async () => {
    const { run } = await longRun(true, undefined, memoryStore({ withStoreText: false }));
    expect(runsOf(run)).toEqual([
      expect.objectContaining({
        outcome: 'failed',
        exhausted: true,
        calls: 0,
        error: expect.stringContaining('storeText'),
      }),
    ]);
    expect(summaryRequests(run)).toEqual([]);
    expect(run.result.success).toBe(true);
  });

  test('a store that refuses the transcript: failed, no summary call', async () => {
    const { run } = await longRun(true, undefined, memoryStore({ failStore: true }));
    expect(runsOf(run)[0]?.error).toContain('the disk is full');
    expect(summaryRequests(run)).toEqual([]);
  });

  test('compaction runs at most once between two turns and never again once exhausted', async () => {
    const ok = await longRun(true);
    const turns = runsOf(ok.run).map((r) => r.turn);
    expect(new Set(turns).size).toBe(turns.length);
    const failed = await longRun(true, () => ({ error: { kind: 'server' } }));
    // Many turns were still over the threshold after the failure: none compacted again.
    expect(runsOf(failed.run)).toHaveLength(1);
    expect(failed.run.result.opTree!.children.filter((c) => c.kind === 'compaction')).toHaveLength(1);
  });
});

describe('the tool-output store of a session that compacts', () => {
  test('compaction on and no toolOutput: the default store is built (an oversized result goes behind a handle)', async () => {
    const session = (compaction: boolean) =>
      runScenario({
        ...(compaction ? { compaction: true } : {}),
        tools: [fetchTool(6000)],
        scripts: [
          [{ toolCalls: [{ id: 'f', name: 'fetch', arguments: { page: 1 } }] }, { text: xmlReport('ok') }],
        ],
      });
    const on = await session(true);
    expect(handleIn(on.result.conversation)).toMatch(/^[0-9a-f-]{36}$/);
    // Without it (and no toolResponseMaxBytes) the session has no store: no handle anywhere.
    const off = await session(false);
    expect(() => handleIn(off.result.conversation)).toThrow('no handle message');
  });
});
