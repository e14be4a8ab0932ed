// The CPU ratio against the raw loop is the median of the ratios of runs made back to back:
// load that drifts during the measurement moves both runs of a pair, not their ratio.
import { describe, expect, it } from 'vitest';
import { pairedRatio, ratio } from '../src/agent-loop/figures.js';
import { spread } from '../src/harness/measure.js';

describe('pairedRatio', () => {
  it('keeps the ratio of runs made back to back when the load changes', () => {
    // The contender costs 1.2x the raw loop. The machine's load triples for three of the
    // contender's runs but only two of the raw loop's: the medians come from different loads.
    const load = { raw: [1, 1, 1, 3, 3], core: [1, 3, 3, 3, 1] };
    const raw = load.raw.map((l) => 2 * l);
    const core = load.core.map((l) => 2.4 * l);
    expect(ratio(spread(core), spread(raw))).toBeCloseTo(3.6, 10);
    const paired = pairedRatio(core, raw);
    expect(paired?.median).toBeCloseTo(1.2, 10);
    expect(paired?.min).toBeCloseTo(0.4, 10);
    expect(paired?.max).toBeCloseTo(3.6, 10);
  });

  it('pairs only runs both contenders made and skips empty ones', () => {
    expect(pairedRatio([2, 4, 6], [1, 0])?.median).toBe(2);
    expect(pairedRatio([2], undefined)).toBeUndefined();
    expect(pairedRatio([0], [1])).toBeUndefined();
  });
});
