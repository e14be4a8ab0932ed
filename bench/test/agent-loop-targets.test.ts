// The agent-loop suite's issue-42 targets: paired figures, verdicts, and a why read from the run's
// own profile of the contender a missed CPU target is about.
import { expect, test } from 'vitest';
import type { Figures } from '../src/agent-loop/figures.js';
import type { ProfileData } from '../src/agent-loop/orchestrate.js';
import { agentLoopTargets, contendersToProfile, explainTargets } from '../src/agent-loop/targets.js';
import { spread } from '../src/harness/measure.js';

function figures(id: string, cpu: Record<number, number[]>, heapKB: number[]): Figures {
  const entries = Object.entries(cpu).map(([n, runs]) => [Number(n), runs] as const);
  return {
    id,
    cpuPerTurnMs: new Map(entries.map(([n, runs]) => [n, spread(runs)])),
    cpuPerTurnRuns: new Map(entries),
    wallPerSessionMs: new Map(),
    eventsPerSecond: new Map(),
    eventsPerSession: new Map(),
    heapPerSessionKB: new Map([[1000, spread(heapKB)]]),
    heapPerSessionRuns: new Map([[1000, heapKB]]),
    rssPerSessionKB: new Map(),
  };
}

const run = [
  figures('raw-loop', { 1: [1, 1, 1], 5: [1, 2, 1], 20: [1, 1, 1] }, [20, 21, 22]),
  figures('raw-loop-xml', { 1: [1, 1, 1], 5: [1, 2, 1], 20: [1, 1, 1] }, [20, 21, 22]),
  // 1.04x raw-loop at N=5 in every pair, though its runs' load drifts; 1.3x at N=20.
  figures('agent-core', { 1: [1.02, 1.03, 1.04], 5: [1.04, 2.08, 1.04], 20: [1.3, 1.3, 1.3] }, [45, 44, 50]),
  figures(
    'agent-core-traced',
    { 1: [1.05, 1.05, 1.05], 5: [1.09, 2.18, 1.09], 20: [1.4, 1.4, 1.4] },
    [50, 50, 50],
  ),
];

test('each target is a paired figure of the run with its verdict', () => {
  const targets = agentLoopTargets(run, [1, 5, 20], [1, 1000]);
  const byName = new Map(targets.map((t) => [t.target, t]));
  expect(byName.get('CPU per turn, N=5: agent-core x raw-loop (paired runs)')).toMatchObject({
    limit: '<= 1.10x',
    measured: '1.04x (1.04-1.04)',
    verdict: 'met',
  });
  expect(byName.get('CPU per turn, N=20: agent-core x raw-loop (paired runs)')?.verdict).toBe('missed');
  // No N=1 row against the plain raw loop: its target starts at N=5.
  expect(byName.has('CPU per turn, N=1: agent-core x raw-loop (paired runs)')).toBe(false);
  expect(byName.get('CPU per turn, N=1: agent-core x raw-loop-xml (paired runs)')?.verdict).toBe('met');
  expect(byName.get('CPU per turn, N=20: agent-core-traced x agent-core (paired runs)')?.measured).toBe(
    '1.08x (1.08-1.08)',
  );
  const heap = byName.get('Heap per in-flight session above raw-loop, K=1000 (paired runs)');
  expect(heap?.verdict).toBe('missed');
  expect(heap?.measured).toBe('25.0 KB (23.0 to 28.0)');
  expect(heap?.why).toContain('agent-core holds 45.0 KB');
});

test("a missed CPU target's why is its contender's top self time in this run's profile", () => {
  const targets = agentLoopTargets(run, [1, 5, 20], [1000]);
  expect(contendersToProfile(targets)).toEqual(['agent-core']);
  const profile: ProfileData = {
    id: 'agent-core',
    plan: { turns: 20, sessions: 20, runs: 1, warmup: 1 },
    modelCalls: 420,
    summary: {
      busyMs: 2100,
      windowed: true,
      functions: [{ name: 'parseChunk', area: '@agent/core', ms: 210, percent: 10 }],
      areas: [],
      byProjectCaller: [{ name: 'runTurn', area: '@agent/core', ms: 840, percent: 40 }],
    },
  };
  const explained = explainTargets(targets, new Map([['agent-core', profile]]));
  const missed = explained.find(
    (t) => t.target === 'CPU per turn, N=20: agent-core x raw-loop (paired runs)',
  );
  expect(missed?.why).toContain('parseChunk (@agent/core) 500 us/turn, 10.0%');
  expect(missed?.why).toContain('runTurn 40.0%');
  expect(explained.filter((t) => t.verdict === 'met').every((t) => t.why === undefined)).toBe(true);
  expect('profileOf' in missed!).toBe(false);
});
