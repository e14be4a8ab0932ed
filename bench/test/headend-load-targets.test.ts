import { expect, test } from 'vitest';
import type { BurstFigures } from '../src/headend-load/orchestrate.js';
import { servedTargets } from '../src/headend-load/targets.js';

/** One burst of a contender with the given added latency and server CPU per session. */
function burst(contender: string, run: number, added: number, cpuMsPerSession: number): BurstFigures {
  return {
    contender,
    concurrency: 100,
    run,
    ok: 200,
    failed: 0,
    lost: 0,
    addedP50: added,
    addedP99: added * 1.5,
    heapKbPerSession: 0,
    rssKbPerSession: 0,
    cpuMsPerSession,
    retainedKbPerSession: 0,
    retainedInFlight: 100,
  };
}

function runs(serverAdded: number): BurstFigures[] {
  return [0, 1, 2].flatMap((run) => [
    burst('server', run, serverAdded + run, 3),
    burst('headend', run, 30, 2.5),
    burst('headend-no-session', run, 25, 2),
    burst('proxy', run, 20 + run, 1.5),
  ]);
}

test('agent-server within 1.25x of the proxy meets both targets, with no why', () => {
  const targets = servedTargets(runs(22), [100]);
  expect(targets.map((t) => [t.target.includes('p50') ? 'p50' : 'p99', t.verdict])).toEqual([
    ['p50', 'met'],
    ['p99', 'met'],
  ]);
  expect(targets.every((t) => t.why === undefined && t.limit === '<= 1.25x')).toBe(true);
});

test('a missed target says by how much and splits the extra CPU per session between the parts', () => {
  const [p50] = servedTargets(runs(40), [100]);
  expect(p50?.verdict).toBe('missed');
  expect(p50?.measured).toBe('1.95x (1.91-2.00)');
  expect(p50?.why).toContain('HTTP/SSE path adds 0.50 ms, the core session 0.50 ms and the runtime');
  expect(p50?.why).toContain('runner 0.50 ms');
});
