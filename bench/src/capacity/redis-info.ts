// What one redis-server has done, from `INFO commandstats stats cpu` (via redis-cli, the
// Debian redis-tools client): calls and server time per command, bytes in and out, and the
// server's own CPU. Two snapshots' difference is what a measured window cost.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface CommandCount {
  calls: number;
  /** Server time spent in the command, microseconds. */
  usec: number;
}

export interface RedisSnapshot {
  commands: Record<string, CommandCount>;
  netInputBytes: number;
  netOutputBytes: number;
  /** used_cpu_user + used_cpu_sys, ms. */
  cpuMs: number;
}

function field(info: string, name: string): number {
  const found = new RegExp(`^${name}:([\\d.]+)`, 'm').exec(info);
  if (found === null) throw new Error(`INFO has no ${name}`);
  return Number(found[1]);
}

/** Parses the text of `INFO commandstats stats cpu`. */
export function parseRedisInfo(info: string): RedisSnapshot {
  const commands: Record<string, CommandCount> = {};
  for (const found of info.matchAll(/^cmdstat_([^:]+):calls=(\d+),usec=(\d+)/gm)) {
    commands[found[1] as string] = { calls: Number(found[2]), usec: Number(found[3]) };
  }
  return {
    commands,
    netInputBytes: field(info, 'total_net_input_bytes'),
    netOutputBytes: field(info, 'total_net_output_bytes'),
    cpuMs: (field(info, 'used_cpu_user') + field(info, 'used_cpu_sys')) * 1000,
  };
}

/** One snapshot of the server on `port` (loopback). */
export async function redisSnapshot(port: number): Promise<RedisSnapshot> {
  const { stdout } = await run('redis-cli', ['-p', String(port), 'INFO', 'commandstats', 'stats', 'cpu'], {
    timeout: 10_000,
  });
  return parseRedisInfo(stdout);
}

/** What happened between two snapshots (commands with no new calls left out). */
export function redisDiff(before: RedisSnapshot, after: RedisSnapshot): RedisSnapshot {
  const commands: Record<string, CommandCount> = {};
  for (const [name, count] of Object.entries(after.commands)) {
    const was = before.commands[name] ?? { calls: 0, usec: 0 };
    if (count.calls > was.calls)
      commands[name] = { calls: count.calls - was.calls, usec: count.usec - was.usec };
  }
  return {
    commands,
    netInputBytes: after.netInputBytes - before.netInputBytes,
    netOutputBytes: after.netOutputBytes - before.netOutputBytes,
    cpuMs: after.cpuMs - before.cpuMs,
  };
}
