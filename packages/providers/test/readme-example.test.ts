// Runs the README's testkit example as written and checks that it prints what the README says.
import { expect, it } from 'vitest';
import { checkReadme, readmeBlock, runExample } from '../../../tooling/vitest/readme-example.js';

it('the README example against the testkit server runs and prints what the README shows', async () => {
  const readme = new URL('../README.md', import.meta.url);
  const example = readmeBlock(readme, { heading: '## Try it against the testkit server' });
  const printed = readmeBlock(readme, { heading: 'It prints:', fence: '```', from: example.end }).code.split(
    '\n',
  );
  const lines = await runExample(example.code, {
    '@agent/providers': () => import('../src/index.js'),
    '@agent/testkit': () => import('@agent/testkit'),
  });
  expect(lines).toEqual(printed);
});

it('every ts block of the README typechecks (strict), and its install lines name every package imported', () => {
  expect(checkReadme(new URL('../README.md', import.meta.url))).toEqual([]);
}, 120_000);
