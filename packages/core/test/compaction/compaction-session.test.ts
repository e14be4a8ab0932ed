import { describe, expect, test } from 'vitest';
import { llmEntries, runScenario } from '../helpers/scenario.js';
import { fetchTool, isSummaryCall, longSession, memoryStore, pairingProblems } from './compaction-helpers.js';

describe('compaction in a session', () => {
  test('a long session in a small window compacts and reaches its report', async () => {
    const store = memoryStore();
    const model = longSession(12);
    const run = await runScenario({
      contextWindow: 6000,
      maxTurns: 40,
      compaction: { keep: 2 },
      toolOutput: store.factory,
      tools: [fetchTool(400)],
      scripts: [model.steps],
    });
    expect(run.result.success).toBe(true);
    expect(run.result.finalReport?.content).toBe('report after 12 pages');
    const compactions = run.events.flatMap((e) => (e.event.type === 'compaction' ? [e.event.run] : []));
    expect(compactions.length).toBeGreaterThan(0);
    expect(compactions.every((c) => c.outcome === 'compacted')).toBe(true);
    const requests = run.models[0]!.requests;
    for (const request of requests.filter((r) => !isSummaryCall(r)))
      expect(pairingProblems(request.messages)).toEqual([]);
    const summaries = llmEntries(run.result).filter((e) => e.purpose === 'compaction');
    expect(summaries).toHaveLength(compactions.length);
  });
});
