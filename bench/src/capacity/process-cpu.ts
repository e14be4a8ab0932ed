// CPU a process has used so far, from `/proc/<pid>/stat` (Linux): utime + stime, in clock
// ticks (USER_HZ, 100 per second on Linux), so the figure has 10 ms resolution.
import { readFileSync } from 'node:fs';

/** Linux's USER_HZ: fixed at 100 for user space whatever the kernel's HZ. */
const TICKS_PER_SECOND = 100;

/** utime + stime of a `/proc/<pid>/stat` line, in ms; the command (field 2) may hold spaces and `)`. */
export function statCpuMs(statLine: string): number {
  const afterCommand = statLine.slice(statLine.lastIndexOf(')') + 2).split(' ');
  // Fields from 3 on: utime is field 14, stime field 15 (1-based), i.e. 11 and 12 here.
  const utime = Number(afterCommand[11]);
  const stime = Number(afterCommand[12]);
  if (!Number.isFinite(utime) || !Number.isFinite(stime)) {
    throw new Error(`not a /proc/<pid>/stat line: ${statLine.slice(0, 120)}`);
  }
  return ((utime + stime) * 1000) / TICKS_PER_SECOND;
}

/** CPU ms process `pid` has used (user + system), read from `/proc/<pid>/stat`. */
export function processCpuMs(pid: number): number {
  return statCpuMs(readFileSync(`/proc/${pid}/stat`, 'utf8'));
}
