import { type ChildProcess, spawn } from 'node:child_process';
import { freePort, packageFile } from './helpers.js';

export const EVERYTHING_BIN = packageFile('@modelcontextprotocol/server-everything', 'dist/index.js');

/** Starts server-everything over HTTP (`streamableHttp` or `sse`) on a free loopback port. */
export async function startEverythingHttp(
  mode: 'streamableHttp' | 'sse',
  fixedPort?: number,
): Promise<{ url: string; port: number; stop: () => Promise<void> }> {
  const port = fixedPort ?? (await freePort());
  const child: ChildProcess = spawn(process.execPath, [EVERYTHING_BIN, mode], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.resume();
  await new Promise<void>((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(
      () => reject(new Error(`server-everything ${mode} did not start: ${seen}`)),
      15_000,
    );
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (text: string) => {
      seen += text;
      if (/listening on port|running on port/i.test(seen)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server-everything ${mode} exited with ${code}: ${seen}`));
    });
  });
  const path = mode === 'sse' ? '/sse' : '/mcp';
  return {
    url: `http://127.0.0.1:${port}${path}`,
    port,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
