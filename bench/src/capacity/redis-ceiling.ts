// One redis-server's ceiling on this machine: `redis-benchmark` (Debian redis-tools) sends one
// command of the session mix many times from 50 clients, no pipelining, and the server's own
// CPU for it (INFO cpu before and after) gives operations per CPU-second: a figure a shared,
// busy machine distorts far less than wall-clock requests per second.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { redisDiff, redisSnapshot } from './redis-info.js';

const run = promisify(execFile);

/** The commands benchmarked: the plain commands a session turn sends most (BullMQ's Lua scripts cannot be replayed alone). */
export const CEILING_COMMANDS: readonly (readonly string[])[] = [
  ['PING'],
  ['XADD', 'capacity:bench:events', 'MAXLEN', '~', '1000', '*', 'a', '1', 's', '1', 'e', 'x'.repeat(200)],
  ['PUBLISH', 'capacity:bench:notify', '1'],
  ['EXPIRE', 'capacity:bench:events', '3600'],
  ['XRANGE', 'capacity:bench:events', '-', '+', 'COUNT', '10'],
];

export interface CeilingRun {
  command: string;
  requests: number;
  /** Wall-clock requests per second redis-benchmark saw (contended on a shared machine). */
  wallPerSecond: number;
  /** Requests per second of the server's own CPU. */
  perCpuSecond: number;
}

/** Runs `command` `requests` times from 50 clients against the server on `port`. */
async function benchmarkCommand(
  port: number,
  command: readonly string[],
  requests: number,
): Promise<CeilingRun> {
  const before = await redisSnapshot(port);
  const { stdout } = await run(
    'redis-benchmark',
    ['-p', String(port), '-c', '50', '-n', String(requests), '--csv', ...command],
    { timeout: 300_000 },
  );
  const used = redisDiff(before, await redisSnapshot(port));
  const row = stdout.trim().split('\n').at(-1) ?? '';
  const wallPerSecond = Number(/^"[^"]*","([\d.]+)"/.exec(row)?.[1]);
  if (!Number.isFinite(wallPerSecond))
    throw new Error(`redis-benchmark printed no result: ${stdout.slice(0, 300)}`);
  return {
    command: command[0] as string,
    requests,
    wallPerSecond,
    perCpuSecond: used.cpuMs > 0 ? (requests * 1000) / used.cpuMs : Number.NaN,
  };
}

/** Every command of `CEILING_COMMANDS`, once each. */
export async function redisCeiling(port: number, requests: number): Promise<CeilingRun[]> {
  const runs: CeilingRun[] = [];
  for (const command of CEILING_COMMANDS) runs.push(await benchmarkCommand(port, command, requests));
  return runs;
}
