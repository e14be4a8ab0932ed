import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import process from 'node:process';

// Servers run detached, each in its own process group, so closing one can take its whole tree
// down. Detached groups do not receive the terminal's Ctrl-C, so the groups still alive when
// this process exits are sent SIGTERM from an `exit` hook (synchronous, as `exit` requires).
// A process killed with SIGKILL runs no hook: for that, one watchdog process per host process
// (started with the first group) is told each group; when our end of its stdin closes, which
// the kernel does however we die, it stops the groups still listed (SIGTERM, then SIGKILL).
const liveGroups = new Set<number>();
let hooked = false;
let watchdog: ChildProcess | undefined;

function onExit(): void {
  for (const pgid of liveGroups) signalGroup(pgid, 'SIGTERM');
}

export const groupsSupported = process.platform !== 'win32';

/** The watchdog script, shipped as plain JS in this package (`src/transports/group-watchdog.cjs`). */
export function watchdogScript(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('@agent/mcp/package.json')), 'src', 'transports', 'group-watchdog.cjs');
}

/** Starts a watchdog (the first, or a new one if the last is gone) and tells it every live group. */
function startWatchdog(): void {
  const child = spawn(process.execPath, [watchdogScript()], {
    // Its own session: no terminal signal reaches it, and it never holds our stdout/stderr.
    detached: true,
    stdio: ['pipe', 'ignore', 'ignore'],
    windowsHide: true,
  });
  const forget = () => {
    if (watchdog === child) watchdog = undefined;
  };
  // A watchdog that could not start or died: the exit hook still covers every ordinary exit,
  // and the next group starts a new one.
  child.once('error', forget);
  child.once('exit', forget);
  child.stdin?.on('error', forget);
  // Neither the process nor its pipe keeps this process alive.
  child.unref();
  (child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  watchdog = child;
  child.stdin?.write([...liveGroups].map((pgid) => `+${pgid}\n`).join(''));
}

export function trackGroup(pgid: number): void {
  if (!hooked) {
    hooked = true;
    process.once('exit', onExit);
  }
  liveGroups.add(pgid);
  if (watchdog === undefined) startWatchdog();
  else watchdog.stdin?.write(`+${pgid}\n`);
}

export function untrackGroup(pgid: number): void {
  if (!liveGroups.delete(pgid)) return;
  if (watchdog?.stdin?.writable) watchdog.stdin.write(`-${pgid}\n`);
}

/** Sends a signal to every process in a group; returns false when none is left. */
export function signalGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}
