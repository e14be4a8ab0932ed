// Runs the README's example as written: a core agent served as an OpenAI-compatible endpoint,
// called with the official client.
import { expect, it } from 'vitest';
import {
  checkReadme,
  commentedOutputs,
  readmeBlock,
  runExample,
} from '../../../tooling/vitest/readme-example.js';

it('the README example serves an agent that the official openai client can call', async () => {
  const { code } = readmeBlock(new URL('../README.md', import.meta.url));
  const expected = commentedOutputs(code);
  expect(expected).toEqual(['Hello, Ada!']);
  const printed = await runExample(code, {
    '@agent/core': () => import('@agent/core'),
    '@agent/headends': () => import('../src/index.js'),
    '@agent/testkit': () => import('@agent/testkit'),
    openai: () => import('openai'),
  });
  expect(printed).toEqual(expected);
});

it('every ts block of the README typechecks (strict), and its install lines name every package imported', () => {
  expect(checkReadme(new URL('../README.md', import.meta.url))).toEqual([]);
}, 120_000);
