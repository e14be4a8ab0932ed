import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentError } from '@agent/protocol';
import { freePort } from '../free-port.js';

export interface RedisServerOptions {
  /** The `redis-server` binary (default `redis-server` on the PATH). */
  binary?: string;
  /** Sets `requirepass`: clients must send it (the URL carries it as `redis://:<password>@...`). */
  password?: string;
  /** How long to wait for the server to accept connections, ms (default 10000). */
  startTimeoutMs?: number;
  /**
   * Keep the data in an append-only file (fsync every write) in the server's directory, so a
   * `stop()` then `restart()` finds it again (default false: nothing persisted).
   */
  appendOnly?: boolean;
}

export interface RedisServer {
  /** `redis://127.0.0.1:PORT` (with `:password@` when one was set). */
  readonly url: string;
  readonly port: number;
  /** Stops the process (SIGTERM, then SIGKILL after 3 s) and keeps its directory; idempotent. */
  stop(): Promise<void>;
  /** Starts a stopped server again on the same port and directory (its data with `appendOnly`). */
  restart(): Promise<void>;
  /** Stops the server and removes its directory; idempotent. */
  close(): Promise<void>;
}

/** Lines of the server's output kept for an error message. */
const KEPT_OUTPUT_CHARS = 2000;
const READY = /ready to accept connections/i;

/**
 * Starts a real `redis-server` (the Debian package `redis-server`) on a free loopback port, with
 * its own temporary directory (no persistence unless `appendOnly`). It is stopped by `close()`,
 * and also when this process exits, so a failed test cannot leave it running. Throws an
 * `AgentError` (`redis_server_unavailable`) when the binary is missing or the server does not start.
 */
export async function startRedisServer(options: RedisServerOptions = {}): Promise<RedisServer> {
  let lastError: unknown;
  // A port found free can be taken before the server binds it: try another one.
  for (let attempt = 0; attempt < 3; attempt++) {
    const dir = mkdtempSync(join(tmpdir(), 'testkit-redis-'));
    try {
      const port = await freePort();
      return serverOn(port, dir, await launch(port, dir, options), options);
    } catch (error) {
      rmSync(dir, { recursive: true, force: true });
      lastError = error;
      if (!(error instanceof PortTaken)) throw error;
    }
  }
  throw unavailable(`redis-server could not bind a free port: ${(lastError as Error).message}`);
}

/** The port was taken between choosing it and binding it: another one is tried. */
class PortTaken extends AgentError {
  constructor(message: string) {
    super('redis_server_unavailable', message);
  }
}

function unavailable(message: string): AgentError {
  return new AgentError('redis_server_unavailable', message);
}

/** A running redis-server process and how to stop it. */
interface Launched {
  stop(): Promise<void>;
}

function serverOn(port: number, dir: string, first: Launched, options: RedisServerOptions): RedisServer {
  let current: Launched | undefined = first;
  let closing: Promise<void> | undefined;
  const auth = options.password === undefined ? '' : `:${encodeURIComponent(options.password)}@`;
  const stop = async () => {
    const running = current;
    current = undefined;
    await running?.stop();
  };
  return {
    url: `redis://${auth}127.0.0.1:${port}`,
    port,
    stop,
    async restart() {
      if (closing !== undefined) throw unavailable('redis-server was closed: it cannot restart');
      if (current !== undefined) return;
      current = await launch(port, dir, options);
    },
    close() {
      closing ??= stop().then(() => rmSync(dir, { recursive: true, force: true }));
      return closing;
    },
  };
}

async function launch(port: number, dir: string, options: RedisServerOptions): Promise<Launched> {
  const persist = options.appendOnly === true;
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--dir', dir];
  args.push('--appendonly', persist ? 'yes' : 'no');
  if (persist) args.push('--appendfsync', 'always');
  if (options.password !== undefined) args.push('--requirepass', options.password);
  const child = spawn(options.binary ?? 'redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-KEPT_OUTPUT_CHARS);
  };
  child.stderr?.on('data', keep);
  // A binary that cannot be spawned never exits: its 'error' ends the wait too.
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.once('error', () => resolve());
  });
  try {
    await waitForReady(child, options.startTimeoutMs ?? 10_000, keep, () => output);
  } catch (error) {
    child.kill('SIGKILL');
    await exited;
    process.removeListener('exit', killOnExit);
    throw error;
  }
  // Drain the output from here on so the pipe never fills.
  child.stdout?.resume();
  child.stderr?.resume();
  let stopping: Promise<void> | undefined;
  return {
    stop() {
      stopping ??= (async () => {
        if (child.exitCode === null && child.signalCode === null) {
          child.kill('SIGTERM');
          const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
          await exited;
          clearTimeout(timer);
        }
        process.removeListener('exit', killOnExit);
      })();
      return stopping;
    },
  };
}

function waitForReady(
  child: ChildProcess,
  timeoutMs: number,
  keep: (chunk: Buffer) => void,
  output: () => string,
): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const done = (error?: Error) => {
      clearTimeout(timer);
      child.stdout?.removeListener('data', onData);
      child.removeListener('error', onError);
      child.removeListener('close', onExit);
      if (error === undefined) resolve();
      else reject(error);
    };
    const onData = (chunk: Buffer) => {
      keep(chunk);
      seen = (seen + chunk.toString('utf8')).slice(-KEPT_OUTPUT_CHARS);
      if (READY.test(seen)) done();
    };
    const onError = (error: NodeJS.ErrnoException) =>
      done(
        error.code === 'ENOENT'
          ? unavailable('redis-server is not installed (Debian: apt-get install -y redis-server)')
          : unavailable(`redis-server could not start: ${error.message}`),
      );
    const onExit = () => {
      const text = output();
      done(
        /address already in use/i.test(text)
          ? new PortTaken(text)
          : unavailable(`redis-server exited before it was ready: ${text.trim().slice(-500)}`),
      );
    };
    const timer = setTimeout(
      () =>
        done(
          unavailable(`redis-server was not ready within ${timeoutMs} ms: ${output().trim().slice(-500)}`),
        ),
      timeoutMs,
    );
    child.stdout?.on('data', onData);
    child.once('error', onError);
    child.once('close', onExit);
  });
}
