import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { processCpuMs, statCpuMs } from '../src/capacity/process-cpu.js';
import { parseRedisInfo, redisDiff } from '../src/capacity/redis-info.js';

const INFO_BEFORE = [
  '# Stats',
  'total_net_input_bytes:1000',
  'total_net_output_bytes:5000',
  '# CPU',
  'used_cpu_sys:1.250000',
  'used_cpu_user:2.500000',
  '# Commandstats',
  'cmdstat_xadd:calls=10,usec=50,usec_per_call=5.00,rejected_calls=0,failed_calls=0',
  'cmdstat_info:calls=1,usec=30,usec_per_call=30.00,rejected_calls=0,failed_calls=0',
].join('\r\n');

const INFO_AFTER = [
  '# Stats',
  'total_net_input_bytes:4000',
  'total_net_output_bytes:9000',
  '# CPU',
  'used_cpu_sys:1.500000',
  'used_cpu_user:3.000000',
  '# Commandstats',
  'cmdstat_xadd:calls=25,usec=110,usec_per_call=4.40,rejected_calls=0,failed_calls=0',
  'cmdstat_info:calls=1,usec=30,usec_per_call=30.00,rejected_calls=0,failed_calls=0',
  'cmdstat_evalsha:calls=4,usec=400,usec_per_call=100.00,rejected_calls=0,failed_calls=0',
].join('\r\n');

describe('capacity counters', () => {
  it('reads calls, bytes and CPU from INFO and keeps only what changed between two snapshots', () => {
    const diff = redisDiff(parseRedisInfo(INFO_BEFORE), parseRedisInfo(INFO_AFTER));
    expect(diff.commands).toEqual({ xadd: { calls: 15, usec: 60 }, evalsha: { calls: 4, usec: 400 } });
    expect(diff.netInputBytes).toBe(3000);
    expect(diff.netOutputBytes).toBe(4000);
    expect(diff.cpuMs).toBeCloseTo(750, 6);
  });

  it('names the field an INFO text lacks', () => {
    expect(() => parseRedisInfo('# CPU\r\nused_cpu_sys:1\r\n')).toThrow(/total_net_input_bytes/);
  });

  it('reads utime + stime of a stat line whose command holds spaces and parentheses', () => {
    const fields = Array.from({ length: 50 }, () => '0');
    fields[11] = '250'; // utime (field 14)
    fields[12] = '50'; // stime (field 15)
    expect(statCpuMs(`4242 (node (x) y) ${fields.join(' ')}`)).toBe(3000);
    expect(() => statCpuMs('4242 (node) S')).toThrow(/not a \/proc/);
  });

  it.runIf(process.platform === 'linux')('sees the CPU a busy child process burns', async () => {
    const child = spawn(process.execPath, ['-e', 'const end = Date.now() + 400; while (Date.now() < end);'], {
      stdio: 'ignore',
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const used = processCpuMs(child.pid as number);
    await exited;
    expect(used).toBeGreaterThan(0);
  });
});
