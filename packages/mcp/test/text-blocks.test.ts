import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readTextBlocks } from '../src/fs/text-blocks.js';
import { tempDir } from './helpers.js';

describe('readTextBlocks', () => {
  const dir = tempDir('mcp-blocks-');
  afterAll(() => dir.remove());

  it('never splits a multi-byte character when a huge line is cut into pieces', async () => {
    const line = `a${'é€😀'.repeat(1_200_000)}`; // ~10.8 MB of 2-, 3- and 4-byte characters
    const file = join(dir.path, 'wide.txt');
    writeFileSync(file, `${line}\nnext\n`);
    const blocks = [];
    for await (const block of readTextBlocks(file)) blocks.push(block);
    expect(blocks.length).toBeGreaterThan(1);
    expect(blocks[0]?.partial).toBe(true);
    const joined = blocks.map((block) => block.text).join('');
    expect(joined).toBe(`${line}\nnext\n`);
    expect(joined.includes('\uFFFD')).toBe(false);
    expect(blocks.at(-1)?.firstLine).toBe(1);
  });

  it('numbers the first line of each block and keeps a last line without newline', async () => {
    const file = join(dir.path, 'lines.txt');
    const lines = Array.from({ length: 200_000 }, (_, i) => `line ${i + 1} ${'ü'.repeat(i % 7)}`);
    writeFileSync(file, lines.join('\n'));
    const seen: string[] = [];
    for await (const block of readTextBlocks(file)) {
      const parts = block.text.split('\n');
      if (parts.at(-1) === '') parts.pop();
      parts.forEach((text, i) => {
        expect(text.startsWith(`line ${block.firstLine + i} `)).toBe(true);
      });
      seen.push(...parts);
    }
    expect(seen).toEqual(lines);
  });
});
