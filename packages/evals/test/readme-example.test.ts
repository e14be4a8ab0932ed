import { fileURLToPath } from 'node:url';
import { afterEach, expect, it } from 'vitest';
import {
  checkReadme,
  commentedOutputs,
  readmeBlock,
  runExample,
} from '../../../tooling/vitest/readme-example.js';

const README = new URL('../README.md', import.meta.url);
const startDir = process.cwd();
afterEach(() => process.chdir(startDir));

it('the README example runs and prints what its comments say', async () => {
  const { code } = readmeBlock(README);
  const expected = commentedOutputs(code);
  expect(expected.length).toBeGreaterThan(3);
  // The example names the agent as a user in the repository's root would.
  process.chdir(fileURLToPath(new URL('../../../', import.meta.url)));
  expect(
    await runExample(code, {
      '@agent/evals': () => import('../src/index.js'),
      '@agent/testkit': () => import('@agent/testkit'),
    }),
  ).toEqual(expected);
}, 120_000);

it('every ts block of the README typechecks (strict), and its install lines name every package imported', () => {
  expect(checkReadme(README)).toEqual([]);
}, 120_000);
