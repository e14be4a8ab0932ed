import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';

/** Name of the SQLite file in the user's state directory. */
export const SESSIONS_FILE_NAME = 'sessions.sqlite';

/**
 * `$XDG_STATE_HOME/agent/sessions.sqlite`, else `~/.local/state/agent/sessions.sqlite`: state
 * that outlives a process but is not configuration.
 */
export function defaultSessionsPath(env: Record<string, string | undefined> = process.env): string {
  const xdg = env.XDG_STATE_HOME;
  const base = xdg !== undefined && xdg !== '' && isAbsolute(xdg) ? xdg : join(homedir(), '.local', 'state');
  return join(base, 'agent', SESSIONS_FILE_NAME);
}
