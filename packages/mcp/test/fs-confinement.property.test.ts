import { realpathSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { confine } from '../src/fs/confine.js';
import { openRoot } from '../src/fs/root.js';
import { createInProcessFsProvider } from '../src/fs-server.js';
import { type McpToolProvider, ToolQueues } from '../src/index.js';
import { makeFsFixture, SECRET } from './fs-fixture.js';
import { noSignal } from './helpers.js';

const fixture = makeFsFixture();
const rootReal = realpathSync(fixture.root);
// The root's own location never appears in what the server says (it is redacted even when the
// caller typed it); other absolute locations (the fixture dir, the secret's dir, link targets)
// may only appear when the caller's path itself contained them, echoed back.
const rootSpellings = [...new Set([fixture.root, rootReal])];
const otherSpellings = [...new Set([fixture.base, fixture.outside, realpathSync(fixture.outside)])];

function expectNothingRevealed(text: string, input: string): void {
  const normalised = input
    .split('/')
    .filter((segment) => segment !== '' && segment !== '.')
    .join('/');
  for (const spelling of rootSpellings) expect(text, JSON.stringify(input)).not.toContain(spelling);
  for (const spelling of otherSpellings) {
    if (!input.includes(spelling) && !normalised.includes(spelling.slice(1))) {
      expect(text, JSON.stringify(input)).not.toContain(spelling);
    }
  }
}

// Segments an attacker would try: traversal in every spelling, encoded forms (never decoded),
// links that lead out (file, directory, absolute, chains, loops), absolute paths of the
// fixture itself, and NUL bytes.
const hostileSegment = fc.oneof(
  fc.constantFrom(
    '..',
    '.',
    '',
    '...',
    ' ..',
    '.. ',
    '..%2f',
    '%2e%2e',
    '%2e%2e%2f',
    '%252e%252e',
    '..%00',
    '..\\..',
    '\\..',
    '..\\',
    '\0',
    'a\0b',
    'outside',
    'secret.txt',
    'root',
    'escape-file',
    'escape-abs',
    'escape-dir',
    'chain1',
    'chain2',
    'dir-chain',
    'src',
    'deep-escape',
    'loop-a',
    'dangling',
    'ok-link',
    'notes.txt',
    'docs',
    '~',
    '$HOME',
    '*',
    '**',
    'C:',
    'c:\\windows',
    fixture.base,
    fixture.root,
    fixture.outside,
    rootReal,
  ),
  fc.string({ maxLength: 6, unit: 'binary-ascii' }),
);
const separator = fc.constantFrom('/', '\\', '//', '/./', '/../');
const leading = fc.constantFrom('', '', '', '/', './', '\\', '\\\\', 'C:\\', 'C:/', '~/', '//', '../');
const hostilePath = fc.oneof(
  fc
    .tuple(leading, fc.array(hostileSegment, { minLength: 1, maxLength: 6 }), separator, fc.boolean())
    .map(([lead, segments, sep, trailing]) => `${lead}${segments.join(sep)}${trailing ? sep : ''}`),
  fc.string({ maxLength: 40, unit: 'binary' }),
);

describe('filesystem confinement (property-based)', () => {
  let fs: McpToolProvider;
  beforeAll(async () => {
    fs = await createInProcessFsProvider({ root: fixture.root, naming: 'bare', queues: new ToolQueues() });
  });
  afterAll(async () => {
    await fs.close();
    fixture.remove();
  });

  it('resolves every accepted path to a real path inside the root', async () => {
    const root = openRoot(fixture.root);
    await fc.assert(
      fc.asyncProperty(hostilePath, async (path) => {
        try {
          const target = await confine(root, path);
          expect(root.contains(target.real), path).toBe(true);
          expect(target.real === rootReal || target.real.startsWith(`${rootReal}/`)).toBe(true);
        } catch (error) {
          expect((error as Error).name).toBe('FsToolError');
          expectNothingRevealed((error as Error).message, path);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('never shows the secret or the root location through any tool (1,200 paths x 4 tools)', async () => {
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(hostilePath, async (path) => {
        const calls: [string, Record<string, unknown>][] = [
          ['Read', { path }],
          ['Grep', { pattern: '.', path, maxMatches: 1 }],
          ['ListDir', { path }],
          ['Find', { pattern: '**', path, maxResults: 50 }],
        ];
        for (const [name, args] of calls) {
          const result = await fs.execute({ name, arguments: args, callId: name }, { signal: noSignal() });
          const text = result.ok ? result.text : result.error.message;
          expect(text, `${name} ${JSON.stringify(path)}`).not.toContain(SECRET);
          expectNothingRevealed(text, path);
          if (result.ok && result.isError) refused++;
        }
      }),
      { numRuns: 1200 },
    );
    expect(refused).toBeGreaterThan(1000);
  }, 120_000);
});
