// Runs the README's HTTP example as written (official clients, a fault and a replayed recording)
// and checks every ts block of the README the way a user's compiler would.
import { expect, it } from 'vitest';
import {
  checkReadme,
  commentedOutputs,
  readmeBlock,
  runExample,
} from '../../../tooling/vitest/readme-example.js';

const readme = new URL('../README.md', import.meta.url);

it('the README example over HTTP runs and prints what its comments say', async () => {
  const { code } = readmeBlock(readme, { heading: '## Over HTTP' });
  const expected = commentedOutputs(code);
  expect(expected).toHaveLength(5);
  const printed = await runExample(code, {
    '@agent/testkit': () => import('../src/index.js'),
    '@anthropic-ai/sdk': () => import('@anthropic-ai/sdk'),
    openai: () => import('openai'),
  });
  expect(printed).toEqual(expected);
});

it('every ts block of the README typechecks (strict), and its install lines name every package imported', () => {
  expect(checkReadme(readme)).toEqual([]);
}, 120_000);
