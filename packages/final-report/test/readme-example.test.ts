import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

describe('README example', () => {
  it('runs and prints what its comments say', () => {
    const source = /```ts\n([\s\S]*?)```\n/.exec(readme)?.[1];
    expect(source).toBeDefined();
    const body = (source ?? '').replace(
      /import \{([^}]*)\} from '@agent\/final-report';/,
      'const {$1} = api;',
    );
    expect(body).not.toContain('import ');
    const expected = [...(source ?? '').matchAll(/console\.log\(.*\); \/\/ (.*)$/gm)].map((m) => m[1]);
    const printed: string[] = [];
    const fakeConsole = { log: (...args: unknown[]) => printed.push(args.map(String).join(' ')) };
    new Function('api', 'console', body)(api, fakeConsole);
    expect(expected.length).toBeGreaterThan(5);
    expect(printed).toEqual(expected);
  });
});
