// Runs the README's testkit example as written and checks that it prints what the README says.
import { readFileSync } from 'node:fs';
import { format } from 'node:util';
import { expect, it } from 'vitest';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

function blockAfter(heading: string, fence: string, from = 0): { code: string; end: number } {
  const at = readme.indexOf(heading, from);
  if (at < 0) throw new Error(`README has no "${heading}"`);
  const start = readme.indexOf(`${fence}\n`, at) + fence.length + 1;
  const end = readme.indexOf('\n```', start);
  return { code: readme.slice(start, end), end };
}

const modules: Record<string, () => Promise<Record<string, unknown>>> = {
  '@agent/providers': () => import('../src/index.js'),
  '@agent/testkit': () => import('@agent/testkit'),
};

it('the README example against the testkit server runs and prints what the README shows', async () => {
  const example = blockAfter('## Try it against the testkit server', '```ts');
  const printed = blockAfter('It prints:', '```', example.end).code.split('\n');

  // `import { a, b } from 'pkg';` lines become parameters bound to the real modules.
  const names: string[] = [];
  const values: unknown[] = [];
  const body = example.code.replace(
    /^import \{ ([^}]+) \} from '([^']+)';\n/gm,
    (_, list: string, from: string) => {
      const load = modules[from];
      if (!load) throw new Error(`the example imports ${from}, which this test does not provide`);
      for (const name of list.split(',').map((n) => n.trim())) {
        names.push(name);
        values.push(load().then((module) => module[name]));
      }
      return '';
    },
  );
  const lines: string[] = [];
  const fakeConsole = { log: (...args: unknown[]) => lines.push(format(...args)) };
  const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (
    ...args: string[]
  ) => (...args: unknown[]) => Promise<void>;
  const run = new AsyncFunction(...names, 'console', body);
  await run(...(await Promise.all(values)), fakeConsole);
  expect(lines).toEqual(printed);
});
