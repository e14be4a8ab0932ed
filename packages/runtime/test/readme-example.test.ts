// Runs the README's example as written and checks that it prints what the README says.
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { expect, test } from 'vitest';
import { checkReadme, readmeBlock, runExample } from '../../../tooling/vitest/readme-example.js';

test('the README example runs and prints what the README shows', async () => {
  const readme = new URL('../README.md', import.meta.url);
  const example = readmeBlock(readme, { heading: '## Example' });
  const printed = readmeBlock(readme, { heading: 'It prints:', fence: '```', from: example.end }).code.split(
    '\n',
  );
  // Remember the temporary directories the example makes, to remove them afterwards.
  const made: string[] = [];
  const keepTrack = (name: string, value: unknown) =>
    name !== 'mkdtempSync'
      ? value
      : (prefix: string) => {
          const dir = (value as (prefix: string) => string)(prefix);
          made.push(dir);
          return dir;
        };
  try {
    const lines = await runExample(
      example.code,
      {
        '@agent/runtime': () => import('../src/index.js'),
        '@agent/testkit': () => import('@agent/testkit'),
        'node:fs': () => import('node:fs'),
        'node:os': () => import('node:os'),
        'node:path': () => import('node:path'),
      },
      keepTrack,
    );
    expect(lines).toEqual(printed);
  } finally {
    for (const dir of made) if (dir.startsWith(tmpdir())) rmSync(dir, { recursive: true, force: true });
  }
});

test('every ts block of the README typechecks (strict), and its install lines name every package imported', () => {
  expect(checkReadme(new URL('../README.md', import.meta.url))).toEqual([]);
}, 120_000);
