import type * as fsp from 'node:fs/promises';
import { join } from 'node:path';

/** The filesystem calls the store makes (injectable so tests can see every one). */
export type StoreFs = Pick<typeof fsp, 'mkdir' | 'open' | 'rm' | 'readdir' | 'readFile' | 'writeFile'>;

/** Prefix of every session directory. */
export const SESSION_DIR_PREFIX = 'ai-agent-';
/** The file in each session directory naming the process that owns it. */
export const OWNER_FILE = '.ai-agent-owner.json';

export interface OwnerRecord {
  pid: number;
  /** When the owning process started, epoch milliseconds (approximate). */
  processStartedAt: number;
  createdAt: number;
  sessionId: string;
}

export function processStartedAt(): number {
  return Math.round(Date.now() - process.uptime() * 1000);
}

export async function writeOwner(fs: StoreFs, dir: string, record: OwnerRecord): Promise<void> {
  await fs.writeFile(join(dir, OWNER_FILE), `${JSON.stringify(record)}\n`, { mode: 0o600, flag: 'wx' });
}

async function readOwner(fs: StoreFs, dir: string): Promise<OwnerRecord | undefined> {
  try {
    const parsed = JSON.parse(await fs.readFile(join(dir, OWNER_FILE), 'utf8')) as Partial<OwnerRecord>;
    return typeof parsed.pid === 'number' && Number.isInteger(parsed.pid) && parsed.pid > 0
      ? (parsed as OwnerRecord)
      : undefined;
  } catch {
    return undefined;
  }
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

/**
 * Removes `ai-agent-*` directories under `parent` left by processes that no longer run. Only
 * directories with a readable owner file naming a dead pid go; a live process's directory, this
 * process's own and anything without an owner file (not ours, or still being created) stay.
 * Returns the names removed.
 */
export async function removeDeadSessionDirs(fs: StoreFs, parent: string): Promise<string[]> {
  let entries: { name: string; isDirectory(): boolean }[];
  try {
    entries = await fs.readdir(parent, { withFileTypes: true });
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const entry of entries) {
    if (!entry.isDirectory() || !entry.name.startsWith(SESSION_DIR_PREFIX)) continue;
    const dir = join(parent, entry.name);
    const owner = await readOwner(fs, dir);
    if (owner === undefined || owner.pid === process.pid || isProcessAlive(owner.pid)) continue;
    try {
      await fs.rm(dir, { recursive: true, force: true });
      removed.push(entry.name);
    } catch {
      // Someone else removed it first, or it is not ours to remove: leave it.
    }
  }
  return removed;
}
