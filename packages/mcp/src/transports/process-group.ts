import process from 'node:process';

// Servers run detached, each in its own process group, so closing one can take its whole tree
// down. Detached groups do not receive the terminal's Ctrl-C, so the groups still alive when
// this process exits are sent SIGTERM from an `exit` hook (synchronous, as `exit` requires).
const liveGroups = new Set<number>();
let hooked = false;

function onExit(): void {
  for (const pgid of liveGroups) signalGroup(pgid, 'SIGTERM');
}

export const groupsSupported = process.platform !== 'win32';

export function trackGroup(pgid: number): void {
  liveGroups.add(pgid);
  if (!hooked) {
    hooked = true;
    process.once('exit', onExit);
  }
}

export function untrackGroup(pgid: number): void {
  liveGroups.delete(pgid);
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
