import { execFile } from 'node:child_process';
import type { StoreFs } from './store-fs.js';

/**
 * A process is identified by its pid and its start time: a pid alone can be reused by an
 * unrelated process once the first one has ended. On Linux the start time is field 22 of
 * `/proc/<pid>/stat` (clock ticks since boot, exact); elsewhere (or for records without it)
 * `ps -o etime=` gives the elapsed time to the second, compared with the recorded start within
 * `START_TOLERANCE_MS`.
 */

/** How far a start time from `ps` (whole seconds) may be from the recorded one. */
export const START_TOLERANCE_MS = 3_000;
/** `ps` gets this long before the owners it would have judged are kept. */
const PS_TIMEOUT_MS = 2_000;

/** When this process started, epoch milliseconds (to the millisecond, as Node measures it). */
export function processStartedAt(): number {
  return Math.round(Date.now() - process.uptime() * 1000);
}

/** Field 22 (`starttime`) of a `/proc/<pid>/stat` line; the command (field 2) may hold spaces and `)`. */
export function parseStartTicks(stat: string): number | undefined {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // fields[0] is field 3 (state), so field 22 is fields[19].
  const ticks = Number(fields[19]);
  return Number.isSafeInteger(ticks) && ticks >= 0 ? ticks : undefined;
}

/** The start time of `pid` in clock ticks since boot, or undefined where `/proc` cannot tell. */
export async function procStartTicks(
  fs: StoreFs,
  pid: number,
  procDir = '/proc',
): Promise<number | undefined> {
  try {
    return parseStartTicks(await fs.readFile(`${procDir}/${pid}/stat`, 'utf8'));
  } catch {
    return undefined;
  }
}

/** `[[dd-]hh:]mm:ss` (the `etime` of `ps`) in milliseconds. */
export function parseElapsed(text: string): number | undefined {
  const match = /^(?:(?:(\d+)-)?(\d+):)?(\d+):(\d+)$/.exec(text.trim());
  if (match === null) return undefined;
  const [, days = '0', hours = '0', minutes, seconds] = match;
  return (((Number(days) * 24 + Number(hours)) * 60 + Number(minutes!)) * 60 + Number(seconds!)) * 1000;
}

/**
 * The start times (epoch ms, to the second) of `pids` from one `ps` call. Pids `ps` does not
 * list are missing from the map; so is everything when `ps` cannot run.
 */
export function psStartTimes(pids: readonly number[], now = Date.now()): Promise<Map<number, number>> {
  const starts = new Map<number, number>();
  if (pids.length === 0) return Promise.resolve(starts);
  return new Promise((resolve) => {
    execFile(
      'ps',
      ['-o', 'pid=,etime=', '-p', pids.join(',')],
      { timeout: PS_TIMEOUT_MS, windowsHide: true },
      (_error, stdout) => {
        // `ps` exits 1 when a pid is gone; the lines it printed still count.
        for (const line of String(stdout ?? '').split('\n')) {
          const [pid, elapsed] = line.trim().split(/\s+/);
          const ms = elapsed === undefined ? undefined : parseElapsed(elapsed);
          if (pid !== undefined && ms !== undefined) starts.set(Number(pid), now - ms);
        }
        resolve(starts);
      },
    );
  });
}

/** Whether a process exists: `kill(pid, 0)` fails with ESRCH only for a dead one (EPERM: alive, not ours). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}
