// Runs a README's example as written, with its imports bound to the real modules, and returns
// what it printed, so a test can compare that with what the README says it prints. That the
// README's ```ts blocks also typecheck and name their packages on an install line is checked by
// `checkReadme` (readme-check.ts).
import { readFileSync } from 'node:fs';
import { format } from 'node:util';
import ts from 'typescript';

export { checkReadme } from './readme-check.js';

export type ModuleLoaders = Record<string, () => Promise<Record<string, unknown>>>;

/** The first fenced block (```ts by default) after `heading` (from the start when absent). */
export function readmeBlock(
  readmeUrl: URL,
  options: { heading?: string; fence?: string; from?: number } = {},
): { code: string; end: number } {
  const readme = readFileSync(readmeUrl, 'utf8');
  const fence = options.fence ?? '```ts';
  const at =
    options.heading === undefined ? (options.from ?? 0) : readme.indexOf(options.heading, options.from ?? 0);
  if (at < 0) throw new Error(`the README has no "${options.heading}"`);
  const open = readme.indexOf(`${fence}\n`, at);
  if (open < 0) throw new Error(`the README has no ${fence} block after "${options.heading ?? 'the start'}"`);
  const start = open + fence.length + 1;
  const end = readme.indexOf('\n```', start);
  return { code: readme.slice(start, end), end };
}

/** Outputs an example announces in `console.log(...); // output` comments. */
export function commentedOutputs(code: string): string[] {
  return [...code.matchAll(/console\.log\(.*\); \/\/ (.*)$/gm)].map((match) => match[1] ?? '');
}

/**
 * Runs `code` (TypeScript: its types are stripped first) as an async function.
 * `import { a, b } from 'x'` and `import X from 'x'` lines bind to `modules[x]`; an import of a
 * module not given is an error. `console.log` is captured.
 */
export async function runExample(
  code: string,
  modules: ModuleLoaders,
  wrap: (name: string, value: unknown) => unknown = (_name, value) => value,
): Promise<string[]> {
  const names: string[] = [];
  const values: Promise<unknown>[] = [];
  const bind = (name: string, from: string, pick: (module: Record<string, unknown>) => unknown) => {
    const load = modules[from];
    if (load === undefined) throw new Error(`the example imports ${from}, which the test does not provide`);
    names.push(name);
    values.push(load().then((module) => wrap(name, pick(module))));
  };
  const body = stripTypes(code)
    .replace(/^import \{([^}]+)\} from '([^']+)';\n/gm, (_, list: string, from: string) => {
      const wanted = list
        .split(',')
        .map((n) => n.trim())
        .filter((n) => n.length > 0);
      for (const name of wanted) bind(name, from, (module) => module[name]);
      return '';
    })
    .replace(/^import (\w+) from '([^']+)';\n/gm, (_, name: string, from: string) => {
      bind(name, from, (module) => module.default);
      return '';
    });
  if (/^import /m.test(body)) throw new Error('the example has an import form this runner does not read');
  const printed: string[] = [];
  const fakeConsole = { log: (...args: unknown[]) => printed.push(format(...args)) };
  const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (
    ...args: string[]
  ) => (...args: unknown[]) => Promise<void>;
  await new AsyncFunction(...names, 'console', body)(...(await Promise.all(values)), fakeConsole);
  return printed;
}

/** The JavaScript of a TypeScript block: types and type-only imports removed, nothing else. */
export function stripTypes(code: string): string {
  const { outputText } = ts.transpileModule(code, {
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
    reportDiagnostics: false,
  });
  return outputText.replace(/^export \{\};\n/m, '');
}
