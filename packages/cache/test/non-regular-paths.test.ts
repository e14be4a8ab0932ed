// A FIFO (or a device) planted at the SQLite cache's or session store's path, or at its WAL
// file, is refused at once with what was wrong; before, open(2) waited for a reader forever.
import { execFile, execFileSync } from 'node:child_process';
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';
import { tempDir } from './helpers.js';

const run = promisify(execFile);
const opener = fileURLToPath(new URL('./fixtures/open-store.ts', import.meta.url));
const packageDir = fileURLToPath(new URL('..', import.meta.url));

async function openIn(kind: 'cache' | 'sessions', path: string): Promise<string> {
  // Bounded: a process still blocked after 15 s is killed, and the test fails on its output.
  const { stdout } = await run(
    process.execPath,
    ['--conditions=@agent/source', '--import', 'tsx', opener, kind, path],
    { cwd: packageDir, timeout: 15_000 },
  ).catch((error: { stdout?: string; killed?: boolean }) => ({
    stdout: error.killed === true ? 'blocked: killed after 15 s' : (error.stdout ?? ''),
  }));
  return stdout.trim();
}

test('a FIFO at the SQLite cache path and at the session store path is refused, not waited on', async () => {
  const dir = tempDir();
  const fifo = join(dir, 'cache.sqlite');
  execFileSync('mkfifo', [fifo], { stdio: 'ignore' });
  expect(await openIn('cache', fifo)).toBe(
    `cannot open the SQLite cache ${fifo}: it is a named pipe (FIFO), not a regular file (a SQLite store must be one)`,
  );
  const sessions = join(dir, 'sessions.sqlite');
  execFileSync('mkfifo', [sessions], { stdio: 'ignore' });
  expect(await openIn('sessions', sessions)).toMatch(
    /^cannot open the session store .*sessions\.sqlite: it is a named pipe \(FIFO\), not a regular file/,
  );
});

test('a FIFO at the WAL file and a symlink to a device are refused too', async () => {
  const dir = tempDir();
  const path = join(dir, 'cache.sqlite');
  execFileSync('mkfifo', [`${path}-wal`], { stdio: 'ignore' });
  expect(await openIn('cache', path)).toBe(
    `cannot open the SQLite cache ${path}: ${path}-wal is a named pipe (FIFO), not a regular file (a SQLite store must be one)`,
  );
  const device = join(dir, 'zero.sqlite');
  symlinkSync('/dev/zero', device);
  expect(await openIn('cache', device)).toBe(
    `cannot open the SQLite cache ${device}: it is a character device, not a regular file (a SQLite store must be one)`,
  );
});
