import { join } from 'node:path';
import {
  isProcessAlive,
  processStartedAt,
  procStartTicks,
  psStartTimes,
  START_TOLERANCE_MS,
} from './process-identity.js';
import type { StoreFs } from './store-fs.js';

/** Prefix of every session directory. */
export const SESSION_DIR_PREFIX = 'ai-agent-';
/** The file in each session directory naming the process that owns it. */
export const OWNER_FILE = '.ai-agent-owner.json';

export interface OwnerRecord {
  pid: number;
  /** When the owning process started, epoch milliseconds. */
  processStartedAt: number;
  /** Linux: when the owning process started, in clock ticks since boot (`/proc/<pid>/stat` field 22). */
  startTicks?: number;
  createdAt: number;
  sessionId: string;
}

/** The owner record of this process for a new directory. */
export async function ownRecord(fs: StoreFs, sessionId: string, createdAt: number): Promise<OwnerRecord> {
  const startTicks = await procStartTicks(fs, process.pid);
  return {
    pid: process.pid,
    processStartedAt: processStartedAt(),
    ...(startTicks === undefined ? {} : { startTicks }),
    createdAt,
    sessionId,
  };
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

export interface OwnerCheckOptions {
  /** Where `/proc` is (tests point it elsewhere to take the portable path). */
  procDir?: string;
  /** Start times of pids from `ps` (injectable for tests). */
  psStartTimes?: (pids: readonly number[]) => Promise<Map<number, number>>;
}

const near = (a: number, b: unknown) => typeof b === 'number' && Math.abs(a - b) <= START_TOLERANCE_MS;

/**
 * For each owner: does the process that wrote the record still run? A dead pid: no. A live
 * pid whose start time differs from the recorded one is another process that got the pid: no.
 * When the start time cannot be found out at all: yes (a directory is kept rather than lost).
 */
export async function ownersAlive(
  fs: StoreFs,
  owners: readonly OwnerRecord[],
  options: OwnerCheckOptions = {},
): Promise<boolean[]> {
  const alive: boolean[] = [];
  const unsure: number[] = [];
  for (const [index, owner] of owners.entries()) {
    if (!isProcessAlive(owner.pid)) {
      alive[index] = false;
      continue;
    }
    if (owner.startTicks !== undefined) {
      const ticks = await procStartTicks(fs, owner.pid, options.procDir);
      if (ticks !== undefined) {
        alive[index] = ticks === owner.startTicks;
        continue;
      }
    }
    if (owner.pid === process.pid) alive[index] = near(processStartedAt(), owner.processStartedAt);
    else unsure.push(index);
  }
  const pids = [...new Set(unsure.map((index) => owners[index]!.pid))];
  const starts = await (options.psStartTimes ?? psStartTimes)(pids);
  for (const index of unsure) {
    const owner = owners[index]!;
    const started = starts.get(owner.pid);
    alive[index] = started === undefined || near(started, owner.processStartedAt);
  }
  return alive;
}

/**
 * Removes `ai-agent-*` directories under `parent` whose owner process has ended (see
 * `ownersAlive`). Directories of running owners (this process's included) and anything
 * without a readable owner file (not ours, or still being created) stay. Returns the names
 * removed.
 */
export async function removeDeadSessionDirs(
  fs: StoreFs,
  parent: string,
  options: OwnerCheckOptions = {},
): Promise<string[]> {
  let entries: { name: string; isDirectory(): boolean }[];
  try {
    entries = await fs.readdir(parent, { withFileTypes: true });
  } catch {
    return [];
  }
  const owned: { name: string; owner: OwnerRecord }[] = [];
  for (const entry of entries) {
    if (!entry.isDirectory() || !entry.name.startsWith(SESSION_DIR_PREFIX)) continue;
    const owner = await readOwner(fs, join(parent, entry.name));
    if (owner !== undefined) owned.push({ name: entry.name, owner });
  }
  const alive = await ownersAlive(
    fs,
    owned.map(({ owner }) => owner),
    options,
  );
  const removed: string[] = [];
  for (const [index, { name }] of owned.entries()) {
    if (alive[index]) continue;
    try {
      await fs.rm(join(parent, name), { recursive: true, force: true });
      removed.push(name);
    } catch {
      // Someone else removed it first, or it is not ours to remove: leave it.
    }
  }
  return removed;
}
