// Runs the README's example as written and checks that it prints what the README says.
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { format } from 'node:util';
import { expect, test } from 'vitest';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

function blockAfter(heading: string, fence: string, from = 0): { code: string; end: number } {
  const at = readme.indexOf(heading, from);
  if (at < 0) throw new Error(`README has no "${heading}"`);
  const start = readme.indexOf(`${fence}\n`, at) + fence.length + 1;
  const end = readme.indexOf('\n```', start);
  return { code: readme.slice(start, end), end };
}

const modules: Record<string, () => Promise<Record<string, unknown>>> = {
  '@agent/runtime': () => import('../src/index.js'),
  '@agent/testkit': () => import('@agent/testkit'),
  'node:fs': () => import('node:fs'),
  'node:os': () => import('node:os'),
  'node:path': () => import('node:path'),
};

test('the README example runs and prints what the README shows', async () => {
  const example = blockAfter('## Example', '```ts');
  const printed = blockAfter('It prints:', '```', example.end).code.split('\n');
  const names: string[] = [];
  const values: Promise<unknown>[] = [];
  const body = example.code.replace(
    /^import \{ ([^}]+) \} from '([^']+)';\n/gm,
    (_, list: string, from: string) => {
      const load = modules[from];
      if (load === undefined)
        throw new Error(`the example imports ${from}, which this test does not provide`);
      for (const name of list.split(',').map((n) => n.trim())) {
        names.push(name);
        values.push(load().then((module) => module[name]));
      }
      return '';
    },
  );
  const lines: string[] = [];
  const made: string[] = [];
  const fakeConsole = { log: (...args: unknown[]) => lines.push(format(...args)) };
  const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (
    ...args: string[]
  ) => (...args: unknown[]) => Promise<void>;
  const resolved = await Promise.all(values);
  // Remember the temporary directory the example makes, to remove it afterwards.
  const index = names.indexOf('mkdtempSync');
  const mkdtemp = resolved[index] as (prefix: string) => string;
  resolved[index] = (prefix: string) => {
    const dir = mkdtemp(prefix);
    made.push(dir);
    return dir;
  };
  try {
    await new AsyncFunction(...names, 'console', body)(...resolved, fakeConsole);
  } finally {
    for (const dir of made) if (dir.startsWith(tmpdir())) rmSync(dir, { recursive: true, force: true });
  }
  expect(lines).toEqual(printed);
});
