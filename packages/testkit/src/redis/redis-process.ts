import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentError } from '@agent/protocol';

/** Lines of the server's output kept for an error message. */
const KEPT_OUTPUT_CHARS = 2000;
const READY = /ready to accept connections/i;

/** How a `redis-server` process is launched: its binary and how long it may take to be ready. */
export interface RedisLaunchOptions {
  /** The `redis-server` binary (default `redis-server` on the PATH). */
  binary?: string;
  /** How long to wait for the server to accept connections, ms (default 10000). */
  startTimeoutMs?: number;
}

/** A running redis-server process and how to stop it. */
export interface Launched {
  /** Stops the process (SIGTERM, then SIGKILL after 3 s); idempotent. */
  stop(): Promise<void>;
  /** Kills the process at once (SIGKILL), as a crash would; resolves when it is gone. */
  kill(): Promise<void>;
}

/** The port was taken between choosing it and binding it: another one is tried. */
export class PortTaken extends AgentError {
  constructor(message: string) {
    super('redis_server_unavailable', message);
  }
}

/** The error of a Redis fixture that cannot start (`redis_server_unavailable`). */
export function unavailable(message: string): AgentError {
  return new AgentError('redis_server_unavailable', message);
}

/**
 * Runs `start` with a fresh temporary directory (removed when it fails), again with another
 * one when a port it chose was taken before the server bound it (at most 3 tries).
 */
export async function onFreshDir<T>(prefix: string, start: (dir: string) => Promise<T>): Promise<T> {
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    try {
      return await start(dir);
    } catch (error) {
      rmSync(dir, { recursive: true, force: true });
      lastError = error;
      if (!(error instanceof PortTaken)) throw error;
    }
  }
  throw unavailable(`redis-server could not bind a free port: ${(lastError as Error).message}`);
}

/**
 * Starts `redis-server` with `args` and waits until it accepts connections. It is killed when
 * this process exits, so a failed test cannot leave it running. Throws `PortTaken` when its port
 * was in use, else an `AgentError` (`redis_server_unavailable`).
 */
export async function launchRedis(args: string[], options: RedisLaunchOptions): Promise<Launched> {
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
    async kill() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await exited;
      }
      process.removeListener('exit', killOnExit);
    },
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
