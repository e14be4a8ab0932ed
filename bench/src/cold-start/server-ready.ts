// `agent-server` ready: the built server spawned with one agent and its REST face on a free
// loopback port, timed from the spawn to the first `GET /health` that answers 200. The port is
// polled (a refused connection is retried at once, so the figure is the ready time within a
// couple of milliseconds), then the server is stopped with SIGTERM and waited for.
import { type ChildProcess, spawn } from 'node:child_process';
import { request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { freePort } from '@agent/testkit';

export const SERVER_BIN = fileURLToPath(
  new URL('../../../apps/server/dist/agent-server.js', import.meta.url),
);
const READY_TIMEOUT_MS = 30_000;
const POLL_GAP_MS = 2;

/** The server's flags for `agent` (its providers in `config`) with the REST face on `port`. */
export function serverArgs(agent: string, config: string, port: number): string[] {
  return [SERVER_BIN, '--agent', agent, '--agent-config', config, '--api', String(port), '--allow-no-auth'];
}

/** One `GET /health`: its status, or 0 when nothing answers yet (refused, reset). */
function health(port: number): Promise<number> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path: '/health', agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', () => resolve(0));
    req.end();
  });
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('close', () => resolve());
    child.kill('SIGTERM');
  });
}

/**
 * Spawns `node [nodeFlags] <server> ...` on a free port and returns the ms from the spawn to its
 * first good health answer; the server is stopped before this resolves.
 */
export async function timeServerReady(
  agent: string,
  config: string,
  options: { cwd: string; env: NodeJS.ProcessEnv; nodeFlags?: string[] },
): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [...(options.nodeFlags ?? []), ...serverArgs(agent, config, port)], {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    if (stderr.length < 4096) stderr += chunk;
  });
  try {
    while (performance.now() - started < READY_TIMEOUT_MS) {
      if (child.exitCode !== null) throw new Error(`agent-server exited ${child.exitCode}: ${stderr.trim()}`);
      if ((await health(port)) === 200) return performance.now() - started;
      await new Promise((resolve) => setTimeout(resolve, POLL_GAP_MS));
    }
    throw new Error(`agent-server did not answer /health within ${READY_TIMEOUT_MS} ms: ${stderr.trim()}`);
  } finally {
    await stop(child);
  }
}
