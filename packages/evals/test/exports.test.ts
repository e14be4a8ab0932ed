import { expect, test } from 'vitest';

// The public surface, pinned (types vanish at run time).
test('@agent/evals exports exactly these values', async () => {
  expect(Object.keys(await import('@agent/evals')).sort()).toEqual([
    'COMPARE_MODES',
    'replay',
    'replaySuite',
    'replaySuiteToJUnit',
    'toJUnitXml',
  ]);
});
