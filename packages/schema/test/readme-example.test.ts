import { expect, it } from 'vitest';
import { commentedOutputs, readmeBlock, runExample } from '../../../tooling/vitest/readme-example.js';

it('the README example runs and prints what its comments say', async () => {
  const { code } = readmeBlock(new URL('../README.md', import.meta.url));
  const expected = commentedOutputs(code);
  expect(expected.length).toBe(5);
  expect(await runExample(code, { '@agent/schema': () => import('../src/index.js') })).toEqual(expected);
});
