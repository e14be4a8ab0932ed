import { expect, it } from 'vitest';
import {
  checkReadme,
  commentedOutputs,
  readmeBlock,
  runExample,
} from '../../../tooling/vitest/readme-example.js';

it('the README example runs and prints what its comments say', async () => {
  const { code } = readmeBlock(new URL('../README.md', import.meta.url));
  const expected = commentedOutputs(code);
  expect(expected.length).toBeGreaterThan(4);
  expect(
    await runExample(code, {
      '@agent/guardrails': () => import('../src/index.js'),
      '@agent/protocol': () => import('@agent/protocol'),
    }),
  ).toEqual(expected);
});

it('every ts block of the README typechecks (strict), and its install lines name every package imported', () => {
  expect(checkReadme(new URL('../README.md', import.meta.url))).toEqual([]);
}, 120_000);
