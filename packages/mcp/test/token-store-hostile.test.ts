// A token file that is not what it seems: a FIFO (load() waited for a writer forever), a
// symlink to /dev/zero (read hundreds of MB before the size check), a temporary name planted
// as a symlink (the write followed it) or as a stale 0644 file (the token stayed 0644).
import { execFileSync } from 'node:child_process';
import {
  closeSync,
  constants,
  existsSync,
  lstatSync,
  openSync,
  readdirSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileTokenStore } from '../src/index.js';
import { tempDir } from './helpers.js';

const tokens = { access_token: 'secret-access', token_type: 'Bearer' };

/** The promise's outcome, or `pending` if it has not settled within `ms`. */
async function within<T>(
  promise: Promise<T>,
  ms: number,
): Promise<{ value?: T; error?: string } | 'pending'> {
  const timer = new Promise<'pending'>((resolve) => setTimeout(() => resolve('pending'), ms));
  return Promise.race([
    promise.then(
      (value) => ({ value }),
      (error: Error) => ({ error: error.message }),
    ),
    timer,
  ]);
}

describe('FileTokenStore against planted files', () => {
  it('a FIFO at the token file is refused at once, not waited on', async () => {
    const dir = tempDir('mcp-tokens-');
    const store = new FileTokenStore(dir.path);
    const fifo = store.fileOf('remote');
    execFileSync('mkfifo', [fifo], { stdio: 'ignore' });
    try {
      expect(await within(store.load('remote'), 3000)).toEqual({
        error: `the OAuth token file ${fifo} is a named pipe (FIFO), not a regular file: remove it and run \`agent mcp login\` again`,
      });
    } finally {
      // Release a reader still blocked in open(2) (today's code), so the test process can end.
      try {
        closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
      } catch {}
      dir.remove();
    }
  });

  it('a symlink to /dev/zero at the token file is refused without reading it', async () => {
    const dir = tempDir('mcp-tokens-');
    try {
      const store = new FileTokenStore(dir.path);
      symlinkSync('/dev/zero', store.fileOf('remote'));
      const started = Date.now();
      expect(await within(store.load('remote'), 5000)).toEqual({
        error: `the OAuth token file ${store.fileOf('remote')} is a symbolic link, not a regular file: remove it and run \`agent mcp login\` again`,
      });
      expect(Date.now() - started).toBeLessThan(1000);
    } finally {
      dir.remove();
    }
  });

  it('a token file over 256 KiB is refused, saying its size and the bound', async () => {
    const dir = tempDir('mcp-tokens-');
    try {
      const store = new FileTokenStore(dir.path);
      writeFileSync(store.fileOf('remote'), 'x'.repeat(300 * 1024));
      await expect(store.load('remote')).rejects.toThrow(
        `the OAuth token file ${store.fileOf('remote')} has 307200 bytes, over the bound of 262144 bytes: remove it and run \`agent mcp login\` again`,
      );
    } finally {
      dir.remove();
    }
  });

  it('a symlink or a stale 0644 file at the temporary name: the write goes to a new 0600 file in the directory', async () => {
    const dir = tempDir('mcp-tokens-');
    try {
      const store = new FileTokenStore(join(dir.path, 'auth'));
      await store.save('remote', { url: 'https://mcp.example/mcp' });
      const file = store.fileOf('remote');
      const elsewhere = join(dir.path, 'attacker-reads-this');
      // Today's temporary name: the file's name, the process id, `.tmp`.
      symlinkSync(elsewhere, `${file}.${process.pid}.tmp`);
      await store.save('remote', { url: 'https://mcp.example/mcp', tokens });
      expect(existsSync(elsewhere)).toBe(false);
      expect(lstatSync(file).isFile()).toBe(true);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect((await store.load('remote'))?.tokens).toEqual(tokens);

      const stale = new FileTokenStore(join(dir.path, 'stale'));
      await stale.save('other', { url: 'https://mcp.example/mcp' });
      writeFileSync(`${stale.fileOf('other')}.${process.pid}.tmp`, '', { mode: 0o644 });
      await stale.save('other', { url: 'https://mcp.example/mcp', tokens });
      expect(statSync(stale.fileOf('other')).mode & 0o777).toBe(0o600);
      expect(
        readdirSync(stale.dir).filter((name) => name.endsWith('.tmp') && !name.includes(`.${process.pid}.`)),
      ).toEqual([]);
    } finally {
      dir.remove();
    }
  });
});
