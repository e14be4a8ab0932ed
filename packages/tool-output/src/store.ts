import { randomBytes } from 'node:crypto';
import * as nodeFs from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { HandleRegistry, isIssuableHandle, newHandle, type StoredOutput } from './handles.js';
import { ownRecord, removeDeadSessionDirs, SESSION_DIR_PREFIX, writeOwner } from './owner.js';
import { StoreError } from './store-error.js';
import type { StoreFs } from './store-fs.js';

export interface ToolOutputStoreOptions {
  sessionId: string;
  /** Parent directory (default `os.tmpdir()`). */
  storeDir?: string;
  fs?: StoreFs;
  now?: () => number;
}

export type NewOutput = Omit<StoredOutput, 'handle' | 'avgLineBytes' | 'createdAt'>;

/** Strings are written in slices of this many UTF-16 units, so no second full-size copy is made. */
const WRITE_SLICE = 1 << 20;

/** A long-lived process (a server running many sessions) sweeps a parent directory at most this often. */
export const SWEEP_INTERVAL_MS = 60_000;
/** When each parent directory was last swept by this process (monotonic ms). */
const lastSweep = new Map<string, number>();

/** The directory name for a session id: `ai-agent-<id>`, with characters other than A-Z a-z 0-9 _ - replaced. */
export function sessionDirName(sessionId: string): string {
  const safe = sessionId.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 100);
  return `${SESSION_DIR_PREFIX}${safe.length > 0 ? safe : 'session'}`;
}

/**
 * One session's stored outputs: a directory `<storeDir>/ai-agent-<session id>` (mode 0700,
 * created on the first store) holding one file per output, named by its handle. `dispose()`
 * removes the directory; it waits for writes under way, so an abort mid-write leaves nothing.
 * `sweep()` removes the directories of owners that have ended.
 */
export class ToolOutputStore {
  readonly handles = new HandleRegistry();
  private readonly fs: StoreFs;
  private readonly now: () => number;
  private dir: string | undefined;
  private creating: Promise<string> | undefined;
  private readonly pending = new Set<Promise<unknown>>();
  private disposed = false;

  constructor(private readonly options: ToolOutputStoreOptions) {
    this.fs = options.fs ?? nodeFs;
    this.now = options.now ?? Date.now;
  }

  /** The session directory, once created. */
  get directory(): string | undefined {
    return this.dir;
  }

  get isEmpty(): boolean {
    return this.handles.size === 0;
  }

  get isDisposed(): boolean {
    return this.disposed;
  }

  /** Writes an output under a fresh handle and registers it (only after the write succeeded). */
  async put(output: NewOutput, text: string): Promise<StoredOutput> {
    if (this.disposed) throw new StoreError('the tool-output store was released (the session is ending)');
    return this.track(this.write(output, text, newHandle()));
  }

  /**
   * Writes an output under the handle an earlier process issued (a resumed session). The handle
   * must be one this module issues (a v4 UUID) and not yet taken.
   */
  async putAt(handle: string, output: NewOutput, text: string): Promise<StoredOutput> {
    if (this.disposed) throw new StoreError('the tool-output store was released (the session is ending)');
    if (!isIssuableHandle(handle) || this.handles.lookup(handle) !== undefined) {
      throw new StoreError(`${JSON.stringify(handle)} is not a handle this store can take`);
    }
    return this.track(this.write(output, text, handle));
  }

  /** The text of a stored output. */
  read(record: StoredOutput): Promise<string> {
    return this.track(this.fs.readFile(this.pathOf(record), 'utf8'));
  }

  lookup(handle: unknown): StoredOutput | undefined {
    return this.handles.lookup(handle);
  }

  /** Absolute path of a stored output. Takes a record the store issued, never a string from outside. */
  pathOf(record: StoredOutput): string {
    if (this.dir === undefined || this.handles.lookup(record.handle) !== record) {
      throw new StoreError('internal: pathOf() needs a record issued by this store');
    }
    return join(this.dir, record.handle);
  }

  /** Opens a stored output for reading. */
  open(record: StoredOutput): Promise<nodeFs.FileHandle> {
    return this.track(this.fs.open(this.pathOf(record), 'r'));
  }

  /**
   * Removes the directories of ended owners under the parent directory (see
   * `removeDeadSessionDirs`), unless this process swept it less than `SWEEP_INTERVAL_MS` ago.
   * Resolves with the names removed; never rejects. `dispose()` waits for it.
   */
  sweep(): Promise<string[]> {
    const parent = this.parent();
    const now = performance.now();
    const last = lastSweep.get(parent);
    if (last !== undefined && now - last < SWEEP_INTERVAL_MS) return Promise.resolve([]);
    lastSweep.set(parent, now);
    return this.track(removeDeadSessionDirs(this.fs, parent).catch(() => []));
  }

  /** Removes the session directory. Safe to call more than once. */
  async dispose(): Promise<void> {
    this.disposed = true;
    await Promise.allSettled([...this.pending, ...(this.creating === undefined ? [] : [this.creating])]);
    const dir = this.dir;
    if (dir === undefined) return;
    await this.fs.rm(dir, { recursive: true, force: true, maxRetries: 3 });
    this.dir = undefined;
  }

  private async write(output: NewOutput, text: string, handle: string): Promise<StoredOutput> {
    const dir = await this.ensureDirectory();
    if (this.disposed) throw new StoreError('the tool-output store was released (the session is ending)');
    const file = await this.fs.open(join(dir, handle), 'wx', 0o600);
    try {
      for (let at = 0; at < text.length; ) {
        let end = Math.min(text.length, at + WRITE_SLICE);
        // Never split a surrogate pair between two writes.
        const last = text.charCodeAt(end - 1);
        if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
        await file.write(text.slice(at, end));
        at = end;
      }
    } finally {
      await file.close();
    }
    const record: StoredOutput = {
      ...output,
      handle,
      avgLineBytes: output.lines === 0 ? output.bytes : Math.round(output.bytes / output.lines),
      createdAt: this.now(),
    };
    this.handles.add(record);
    return record;
  }

  private ensureDirectory(): Promise<string> {
    this.creating ??= this.createDirectory().catch((error: unknown) => {
      this.creating = undefined;
      throw error;
    });
    return this.creating;
  }

  private async createDirectory(): Promise<string> {
    const parent = this.parent();
    await this.fs.mkdir(parent, { recursive: true });
    await this.sweep();
    const base = sessionDirName(this.options.sessionId);
    // The fixed name first; if a live owner holds it (the same session id twice), a suffixed one.
    for (const name of [
      base,
      `${base}-${randomBytes(4).toString('hex')}`,
      `${base}-${randomBytes(8).toString('hex')}`,
    ]) {
      const dir = join(parent, name);
      try {
        await this.fs.mkdir(dir, { mode: 0o700 });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue;
        throw error;
      }
      this.dir = dir;
      await writeOwner(this.fs, dir, await ownRecord(this.fs, this.options.sessionId, this.now()));
      return dir;
    }
    throw new StoreError(`could not create a session directory under ${parent}: the names are taken`);
  }

  private parent(): string {
    return resolve(this.options.storeDir ?? tmpdir());
  }

  private track<T>(promise: Promise<T>): Promise<T> {
    this.pending.add(promise);
    const forget = () => this.pending.delete(promise);
    promise.then(forget, forget);
    return promise;
  }
}
