import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInProcessFsProvider } from '../src/fs-server.js';
import { type McpToolProvider, ToolQueues } from '../src/index.js';
import { makeFsFixture, SECRET } from './fs-fixture.js';
import { noSignal } from './helpers.js';

describe('filesystem server: Read', () => {
  const fixture = makeFsFixture();
  let fs: McpToolProvider;
  beforeAll(async () => {
    fs = await createInProcessFsProvider({
      root: fixture.root,
      tools: ['Read'],
      naming: 'bare',
      queues: new ToolQueues(),
    });
  });
  afterAll(async () => {
    await fs.close();
    fixture.remove();
  });

  async function read(args: Record<string, unknown>) {
    const result = await fs.execute({ name: 'Read', arguments: args, callId: 'r' }, { signal: noSignal() });
    if (!result.ok) throw new Error(`${result.error.kind}: ${result.error.message}`);
    return result;
  }

  it('exposes only the tools asked for, under bare names', async () => {
    expect((await fs.listTools()).map((tool) => tool.name)).toEqual(['Read']);
  });

  it('numbers lines under a header with the range and total', async () => {
    const { text } = await read({ path: 'notes.txt' });
    expect(text).toBe(
      [
        '[notes.txt: lines 1-5 of 5]',
        '     1\talpha',
        '     2\tbeta',
        '     3\tgamma',
        '     4\tdelta',
        '     5\tepsilon',
      ].join('\n'),
    );
  });

  it('pages with offset and limit and says where to continue', async () => {
    const { text } = await read({ path: 'notes.txt', offset: 2, limit: 2 });
    expect(text).toBe('[notes.txt: lines 2-3 of 5; continue with offset=4]\n     2\tbeta\n     3\tgamma');
  });

  it('handles a last line without newline, CRLF, empty files and an offset past the end', async () => {
    expect((await read({ path: 'no-newline.txt' })).text).toBe(
      '[no-newline.txt: lines 1-2 of 2]\n     1\tone\n     2\ttwo',
    );
    expect((await read({ path: 'crlf.txt' })).text).toBe(
      '[crlf.txt: lines 1-2 of 2]\n     1\tfirst line\n     2\tsecond line',
    );
    expect((await read({ path: 'empty.txt' })).text).toBe('[empty.txt: empty file]');
    expect((await read({ path: 'notes.txt', offset: 9 })).text).toBe(
      '[notes.txt: has 5 lines; offset 9 is past the end]',
    );
  });

  it('cuts a 5 MB line with a marker and goes on with the next line', async () => {
    const { text } = await read({ path: 'long.txt' });
    const lines = text.split('\n');
    expect(lines[0]).toBe('[long.txt: lines 1-2 of 2]');
    expect(lines[1]!.length).toBeLessThan(2100);
    expect(lines[1]).toContain('... [line cut at 2000 chars; 5242886 bytes in all]');
    expect(lines[2]).toBe('     2\tshort tail');
  });

  it('follows a link that stays inside the root', async () => {
    expect((await read({ path: 'ok-link', limit: 1 })).text).toBe(
      '[ok-link: lines 1-1 of 5; continue with offset=2]\n     1\talpha',
    );
  });

  it('refuses binary files, directories and missing files with clear tool errors', async () => {
    const binary = await read({ path: 'binary.dat' });
    expect(binary).toMatchObject({
      isError: true,
      text: '"binary.dat" is a binary file: Read shows text files only.',
    });
    expect(await read({ path: 'src' })).toMatchObject({
      isError: true,
      text: expect.stringContaining('is a directory'),
    });
    expect(await read({ path: 'nope.txt' })).toMatchObject({
      isError: true,
      text: '"nope.txt" does not exist.',
    });
    expect(await read({ path: 'dangling' })).toMatchObject({
      isError: true,
      text: '"dangling" does not exist.',
    });
  });

  it('refuses escapes without naming the root', async () => {
    // The links really do lead to the secret: only the server's checks keep it out.
    expect(readFileSync(join(fixture.root, 'chain1'), 'utf8')).toContain(SECRET);
    expect(readFileSync(join(fixture.root, 'dir-chain', 'secret.txt'), 'utf8')).toContain(SECRET);
    for (const path of [
      '../outside/secret.txt',
      '/etc/passwd',
      'escape-file',
      'chain1',
      'escape-dir/secret.txt',
      'dir-chain/secret.txt',
    ]) {
      const result = await read({ path });
      expect(result.isError, path).toBe(true);
      expect(result.text).not.toContain(fixture.base);
    }
    expect((await read({ path: 'loop-a' })).text).toContain('too many levels of symbolic links');
  });

  it('checks arguments on the client side first', async () => {
    const result = await fs.execute(
      { name: 'Read', arguments: { path: 'notes.txt', offset: 0 }, callId: 'r' },
      { signal: noSignal() },
    );
    expect(result).toMatchObject({ ok: false, error: { kind: 'invalid_arguments' } });
    expect(result.ok === false && result.error.message).toContain('"/offset": must be >= 1');
  });
});
