import { execFile } from 'node:child_process';
import { unavailable } from './redis-process.js';

/** Most bytes of a `redis-cli` answer read (a `CLUSTER NODES` of a test cluster is a few KB). */
const MAX_ANSWER_BYTES = 1024 * 1024;

/**
 * Runs `redis-cli` against the server on `127.0.0.1:port` (authenticated when `password` is
 * set, its warning silenced) and returns what it printed. Throws an `AgentError`
 * (`redis_server_unavailable`) when `redis-cli` is missing, fails or takes over `timeoutMs`.
 */
export function redisCli(
  port: number,
  args: string[],
  options: { password?: string; timeoutMs?: number } = {},
): Promise<string> {
  const auth = options.password === undefined ? [] : ['-a', options.password, '--no-auth-warning'];
  const argv = ['-h', '127.0.0.1', '-p', String(port), ...auth, ...args];
  return new Promise((resolve, reject) => {
    execFile(
      'redis-cli',
      argv,
      { timeout: options.timeoutMs ?? 10_000, maxBuffer: MAX_ANSWER_BYTES, encoding: 'utf8' },
      (error, stdout, stderr) => {
        if (error === null) return resolve(stdout);
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
          return reject(unavailable('redis-cli is not installed (Debian: apt-get install -y redis-tools)'));
        }
        const said = `${stdout}${stderr}`.trim().slice(-500);
        reject(unavailable(`redis-cli ${args.join(' ')} failed: ${said || error.message}`));
      },
    );
  });
}
