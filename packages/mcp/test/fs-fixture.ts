import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './helpers.js';

export const SECRET = 'TOP-SECRET-7f3a9c';

/**
 * A temp dir with `root/` (the served tree) and `outside/` (a secret the server must never show),
 * plus symbolic links inside the root that lead out, directly, through directories and in chains.
 */
export function makeFsFixture() {
  const base = tempDir('mcp-fs-');
  const root = join(base.path, 'root');
  const outside = join(base.path, 'outside');
  mkdirSync(join(root, 'src', 'sub'), { recursive: true });
  mkdirSync(join(root, 'docs'), { recursive: true });
  mkdirSync(outside, { recursive: true });
  writeFileSync(join(outside, 'secret.txt'), `${SECRET}\n`);
  writeFileSync(join(root, 'notes.txt'), 'alpha\nbeta\ngamma\ndelta\nepsilon\n');
  writeFileSync(join(root, 'no-newline.txt'), 'one\ntwo');
  writeFileSync(join(root, 'empty.txt'), '');
  writeFileSync(join(root, 'crlf.txt'), 'first line\r\nsecond line\r\n');
  writeFileSync(join(root, 'src', 'a.ts'), 'export const a = 1;\n// TODO: a\n');
  writeFileSync(join(root, 'src', 'b.ts'), 'export const b = 2;\n');
  writeFileSync(join(root, 'src', 'sub', 'c.ts'), 'const c = 3;\n// TODO: c\nexport { c };\n');
  writeFileSync(join(root, 'docs', 'readme.md'), '# Readme\nTODO: docs\n');
  writeFileSync(join(root, 'binary.dat'), Buffer.from([0x89, 0x50, 0x00, 0x01, 0x54, 0x4f, 0x44, 0x4f]));
  writeFileSync(join(root, 'long.txt'), `${'x'.repeat(5 * 1024 * 1024)}needle\nshort tail\n`);
  symlinkSync('notes.txt', join(root, 'ok-link'));
  symlinkSync('../outside/secret.txt', join(root, 'escape-file'));
  symlinkSync(join(outside, 'secret.txt'), join(root, 'escape-abs'));
  symlinkSync('../outside', join(root, 'escape-dir'));
  symlinkSync('chain2', join(root, 'chain1'));
  symlinkSync('escape-file', join(root, 'chain2'));
  symlinkSync('../../outside', join(root, 'src', 'deep-escape'));
  symlinkSync('src/deep-escape', join(root, 'dir-chain'));
  symlinkSync('loop-b', join(root, 'loop-a'));
  symlinkSync('loop-a', join(root, 'loop-b'));
  symlinkSync('missing-target', join(root, 'dangling'));
  return { base: base.path, root, outside, remove: base.remove };
}
