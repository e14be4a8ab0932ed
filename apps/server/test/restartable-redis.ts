import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A real redis-server with an append-only file, stopped and started again on the same port and data. */
export async function restartableRedis() {
  const dir = mkdtempSync(join(tmpdir(), 'queue-redis-'));
  const port = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address() as { port: number };
      probe.close(() => resolve(free));
    });
  });
  let child: ChildProcess | undefined;
  const start = () =>
    new Promise<void>((resolve, reject) => {
      const server = spawn(
        'redis-server',
        ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--appendonly', 'yes', '--save', ''],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      child = server;
      let said = '';
      server.stdout?.on('data', (chunk: Buffer) => {
        said += chunk.toString();
        if (/ready to accept connections/i.test(said)) resolve();
      });
      server.on('exit', (code) => reject(new Error(`redis-server exited with ${code}: ${said.slice(-500)}`)));
    });
  const stop = async () => {
    const server = child;
    child = undefined;
    if (server === undefined || server.exitCode !== null) return;
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    start,
    stop,
    async close() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
