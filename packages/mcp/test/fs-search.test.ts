import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInProcessFsProvider } from '../src/fs-server.js';
import { type McpToolProvider, ToolQueues } from '../src/index.js';
import { makeFsFixture, SECRET } from './fs-fixture.js';
import { noSignal } from './helpers.js';

describe('filesystem server: Grep, ListDir, Find', () => {
  const fixture = makeFsFixture();
  let fs: McpToolProvider;
  beforeAll(async () => {
    fs = await createInProcessFsProvider({ root: fixture.root, queues: new ToolQueues() });
  });
  afterAll(async () => {
    await fs.close();
    fixture.remove();
  });

  async function run(tool: string, args: Record<string, unknown>): Promise<string> {
    const result = await fs.execute(
      { name: `fs__${tool}`, arguments: args, callId: tool },
      { signal: noSignal() },
    );
    if (!result.ok) throw new Error(`${result.error.kind}: ${result.error.message}`);
    return result.text;
  }

  it('offers all four tools by default, prefixed with the provider id', async () => {
    expect((await fs.listTools()).map((tool) => tool.name)).toEqual([
      'fs__Read',
      'fs__Grep',
      'fs__ListDir',
      'fs__Find',
    ]);
  });

  it('greps a directory recursively as file:line:text', async () => {
    expect(await run('Grep', { pattern: 'TODO' })).toBe(
      [
        'docs/readme.md:2:TODO: docs',
        'src/a.ts:2:// TODO: a',
        'src/sub/c.ts:2:// TODO: c',
        '[3 matching line(s) in 3 file(s); 1 binary file(s) skipped]',
      ].join('\n'),
    );
  });

  it('limits the search by a glob path or a glob filter', async () => {
    expect(await run('Grep', { pattern: 'TODO', path: 'src/**/*.ts' })).toBe(
      ['src/a.ts:2:// TODO: a', 'src/sub/c.ts:2:// TODO: c', '[2 matching line(s) in 2 file(s)]'].join('\n'),
    );
    expect(await run('Grep', { pattern: 'todo', glob: '*.md', ignoreCase: true })).toBe(
      'docs/readme.md:2:TODO: docs\n[1 matching line(s) in 1 file(s)]',
    );
  });

  it('takes an existing path literally even when it looks like a glob', async () => {
    writeFileSync(join(fixture.root, 'report (1).txt'), 'literal hit\n');
    expect(await run('Grep', { pattern: 'hit', path: 'report (1).txt' })).toBe(
      'report (1).txt:1:literal hit\n[1 matching line(s) in 1 file(s)]',
    );
    expect(await run('Grep', { pattern: 'TODO', path: 'nowhere/**/*.ts' })).toContain(
      '"nowhere" does not exist',
    );
  });

  it('marks context lines and separates groups', async () => {
    expect(await run('Grep', { pattern: '^(alpha|epsilon)$', path: 'notes.txt', context: 1 })).toBe(
      [
        'notes.txt:1:alpha',
        'notes.txt-2-beta',
        '--',
        'notes.txt-4-delta',
        'notes.txt:5:epsilon',
        '[2 matching line(s) in 1 file(s)]',
      ].join('\n'),
    );
  });

  it('counts per file, stops at maxMatches, and never matches across lines', async () => {
    expect(await run('Grep', { pattern: 'const', path: 'src', count: true })).toBe(
      'src/a.ts:1\nsrc/b.ts:1\nsrc/sub/c.ts:1\n[3 matching line(s) in 3 file(s)]',
    );
    expect(await run('Grep', { pattern: 'a', path: 'notes.txt', maxMatches: 2 })).toContain(
      'notes.txt:2:beta\n[2 matching line(s) in 1 file(s); stopped at maxMatches=2',
    );
    expect(await run('Grep', { pattern: 'alpha\\sbeta', path: 'notes.txt' })).toBe(
      'No matches for /alpha\\sbeta/ in "notes.txt".',
    );
  });

  it('finds a match at the end of a 5 MB line and shows a window around it', async () => {
    const text = await run('Grep', { pattern: 'needle', path: 'long.txt' });
    const first = text.split('\n')[0]!;
    expect(first).toMatch(/^long\.txt:1:\.\.\.x+needle\.\.\. \[line cut: 5242886 chars, showing \d+-\d+\]$/);
    expect(first.length).toBeLessThan(600);
  });

  it('numbers lines correctly across 1 MB blocks', async () => {
    const lines = Array.from({ length: 120_000 }, (_, i) =>
      i % 997 === 0 ? `hit ${i + 1} here` : `filler line ${i + 1} lorem ipsum`,
    );
    writeFileSync(join(fixture.root, 'many.log'), `${lines.join('\n')}\n`);
    const expected = lines.flatMap((line, i) =>
      line.startsWith('hit') ? [`many.log:${i + 1}:${line}`] : [],
    );
    const text = await run('Grep', { pattern: '^hit \\d+', path: 'many.log', maxMatches: 10_000 });
    expect(text.split('\n').slice(0, -1)).toEqual(expected);
    expect(await run('Grep', { pattern: 'hit', path: 'many.log', count: true })).toBe(
      `many.log:${expected.length}\n[${expected.length} matching line(s) in 1 file(s)]`,
    );
  });

  it('skips binary files and links leading outside, and rejects a bad pattern', async () => {
    const all = await run('Grep', { pattern: 'SECRET|TODO|PNG' });
    expect(all).not.toContain(SECRET);
    expect(all).toContain('binary file(s) skipped');
    expect(await run('Grep', { pattern: '(' })).toContain(
      'pattern "(" is not a regular expression RE2 can run',
    );
  });

  it('lists a directory with kinds, sizes and link markers, without revealing link targets', async () => {
    const text = await run('ListDir', {});
    expect(text.split('\n')[0]).toMatch(/^\[\.: \d+ entries\]$/);
    expect(text).toContain('\ndocs/\n');
    expect(text).toContain('\nnotes.txt (31 bytes)\n');
    expect(text).toContain('\nok-link@ (link, 31 bytes)\n');
    expect(text).toContain('\nescape-dir@ (link leading outside the root)\n');
    expect(text).toContain('\ndangling@ (broken link)');
    expect(text).not.toContain(fixture.base);
    expect(await run('ListDir', { path: 'src/sub' })).toBe('[src/sub: 1 entries]\nc.ts (38 bytes)');
  });

  it('finds paths by glob, at any depth for a bare name pattern', async () => {
    expect(await run('Find', { pattern: '*.ts' })).toBe('src/a.ts\nsrc/b.ts\nsrc/sub/c.ts\n[3 path(s)]');
    expect(await run('Find', { pattern: 'sub/*', path: 'src' })).toBe('src/sub/c.ts\n[1 path(s)]');
    expect(await run('Find', { pattern: '*', type: 'dir' })).toBe('docs/\nsrc/\nsrc/sub/\n[3 path(s)]');
    expect(await run('Find', { pattern: '*.nothing' })).toBe('No paths match "*.nothing" under ".".');
  });
});

describe('Grep on a line longer than the 8 MB block limit', () => {
  const fixture = makeFsFixture();
  afterAll(() => fixture.remove());

  it('counts and reports the line once, with its number', async () => {
    const piece = 'needle '.repeat(1024 * 1024); // 7 MB per piece, two of them on line 2
    writeFileSync(join(fixture.root, 'huge.txt'), `before\n${piece}${piece}end\nneedle after\n`);
    const fs = await createInProcessFsProvider({
      root: fixture.root,
      tools: ['Grep'],
      queues: new ToolQueues(),
    });
    try {
      const grep = async (args: Record<string, unknown>) => {
        const result = await fs.execute(
          { name: 'fs__Grep', arguments: args, callId: 'g' },
          { signal: noSignal() },
        );
        return result.ok ? result.text : result.error.message;
      };
      expect(await grep({ pattern: 'needle', path: 'huge.txt', count: true })).toBe(
        'huge.txt:2\n[2 matching line(s) in 1 file(s)]',
      );
      const lines = (await grep({ pattern: 'needle', path: 'huge.txt' })).split('\n');
      expect(lines.map((line) => line.slice(0, 11))).toEqual(['huge.txt:2:', 'huge.txt:3:', '[2 matching']);
    } finally {
      await fs.close();
    }
  }, 60_000);
});
