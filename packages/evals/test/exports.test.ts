import { expect, test } from 'vitest';

// The public surface, pinned (types vanish at run time).
test('@agent/evals exports exactly these values', async () => {
  expect(Object.keys(await import('@agent/evals')).sort()).toEqual([
    'COMPARE_MODES',
    'EvalInputError',
    'JUDGE_SCORE_SCHEMA',
    'MAX_DATASET_BYTES',
    'MAX_DATASET_CASES',
    'SCORER_TYPES',
    'compareWithBaseline',
    'evalRunToJUnit',
    'evaluate',
    'loadDataset',
    'passHatK',
    'readEvalRun',
    'replay',
    'replaySuite',
    'replaySuiteToJUnit',
    'toJUnitXml',
    'writeEvalRun',
  ]);
});
