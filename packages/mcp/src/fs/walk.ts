import type { Dirent } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { ConfinedPath } from './confine.js';
import type { FsRoot } from './root.js';

export interface WalkEntry {
  /** Root-relative display path. */
  display: string;
  /** Path relative to the directory the walk started from (`/`-separated). */
  relative: string;
  /** Real path, checked to be inside the root. */
  real: string;
  kind: 'file' | 'dir';
}

export interface WalkOptions {
  signal?: AbortSignal;
  /** Stop after visiting this many entries. */
  maxEntries: number;
}

function joinDisplay(base: string, name: string): string {
  return base === '.' || base === '' ? name : `${base}/${name}`;
}

/** Classifies a symbolic link: followed only to a file inside the root; linked directories are not entered. */
async function resolveLink(root: FsRoot, path: string): Promise<string | undefined> {
  try {
    const real = await realpath(path);
    if (!root.contains(real)) return undefined;
    return (await stat(real)).isFile() ? real : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Walks a directory in a stable order (each directory's entries in name order, then its
 * subdirectories), yielding files and directories. Symbolic links
 * are followed only when they resolve to a file inside the root; unreadable directories are
 * skipped. The walk never leaves the root.
 */
export async function* walk(
  root: FsRoot,
  start: ConfinedPath,
  options: WalkOptions,
): AsyncGenerator<WalkEntry> {
  let visited = 0;
  const pending: { real: string; display: string; relative: string }[] = [
    { real: start.real, display: start.display, relative: '' },
  ];
  while (pending.length > 0) {
    const dir = pending.pop();
    if (!dir) break;
    options.signal?.throwIfAborted();
    let entries: Dirent[];
    try {
      entries = await readdir(dir.real, { withFileTypes: true });
    } catch {
      continue;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const subdirs: typeof pending = [];
    for (const entry of entries) {
      if (++visited > options.maxEntries) return;
      const display = joinDisplay(dir.display, entry.name);
      const relative = dir.relative === '' ? entry.name : `${dir.relative}/${entry.name}`;
      const full = join(dir.real, entry.name);
      if (entry.isDirectory()) {
        yield { display, relative, real: full, kind: 'dir' };
        subdirs.push({ real: full, display, relative });
      } else if (entry.isFile()) {
        yield { display, relative, real: full, kind: 'file' };
      } else if (entry.isSymbolicLink()) {
        const real = await resolveLink(root, full);
        if (real) yield { display, relative, real, kind: 'file' };
      }
    }
    for (let i = subdirs.length - 1; i >= 0; i--) pending.push(subdirs[i]!);
  }
}
