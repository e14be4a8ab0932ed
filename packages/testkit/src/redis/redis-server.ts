import { rmSync } from 'node:fs';
import { freePort } from '../free-port.js';
import {
  type Launched,
  launchRedis,
  onFreshDir,
  type RedisLaunchOptions,
  unavailable,
} from './redis-process.js';

export interface RedisServerOptions extends RedisLaunchOptions {
  /** Sets `requirepass`: clients must send it (the URL carries it as `redis://:<password>@...`). */
  password?: string;
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

/**
 * Starts a real `redis-server` (the Debian package `redis-server`) on a free loopback port, with
 * its own temporary directory (no persistence unless `appendOnly`). It is stopped by `close()`,
 * and also when this process exits, so a failed test cannot leave it running. Throws an
 * `AgentError` (`redis_server_unavailable`) when the binary is missing or the server does not start.
 */
export async function startRedisServer(options: RedisServerOptions = {}): Promise<RedisServer> {
  return onFreshDir('testkit-redis-', async (dir) => {
    const port = await freePort();
    return serverOn(port, dir, await launch(port, dir, options), options);
  });
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
  return launchRedis(args, options);
}
