import { stat } from 'node:fs/promises';
import picomatch from 'picomatch';
import { type ConfinedPath, confine, confineExisting } from './confine.js';
import { FsToolError, safeFsError } from './fs-errors.js';
import type { FsRoot } from './root.js';
import { type WalkEntry, walk } from './walk.js';

export const MAX_WALK_ENTRIES = 100_000;

export interface SearchScope {
  /** The directory or file searched, as confined. */
  base: ConfinedPath;
  isFile: boolean;
  /** Glob relative to `base`, if any (from the path itself or from a separate `glob`). */
  matches?: (relative: string) => boolean;
  description: string;
}

/** A glob without `/` matches a name at any depth (`*.ts` finds `src/a.ts`). */
export function globMatcher(glob: string): (relative: string) => boolean {
  return picomatch(glob, { dot: true, basename: !glob.includes('/') });
}

/**
 * Turns a `path` that may itself be a glob (`src/**\/*.ts`) plus an optional `glob` filter into
 * the place to search. The non-glob part is confined to the root like any path.
 */
export async function searchScope(
  root: FsRoot,
  path: string,
  glob: string | undefined,
): Promise<SearchScope> {
  // A path that exists is taken literally, even with glob characters (`report (1).txt`).
  const literal = await confine(root, path);
  const scan = picomatch.scan(path);
  const asGlob = !literal.exists && scan.isGlob;
  const base = asGlob ? await confineExisting(root, scan.base || '.') : literal;
  if (!base.exists) throw new FsToolError(`"${base.display}" does not exist.`);
  let isFile: boolean;
  try {
    isFile = (await stat(base.real)).isFile();
  } catch (error) {
    throw safeFsError(error, base.display);
  }
  const patterns = [asGlob ? scan.glob : undefined, glob].filter((p): p is string => !!p);
  const tests = patterns.map(globMatcher);
  const description = asGlob
    ? `"${root.redact(path)}"`
    : `"${base.display}"${glob ? ` (files matching "${glob}")` : ''}`;
  return {
    base,
    isFile,
    ...(tests.length > 0 ? { matches: (relative: string) => tests.every((test) => test(relative)) } : {}),
    description,
  };
}

/** The files a scope covers, in a stable order. */
export async function* scopeFiles(
  root: FsRoot,
  scope: SearchScope,
  signal?: AbortSignal,
): AsyncGenerator<WalkEntry> {
  if (scope.isFile) {
    yield { display: scope.base.display, relative: scope.base.display, real: scope.base.real, kind: 'file' };
    return;
  }
  for await (const entry of walk(root, scope.base, {
    maxEntries: MAX_WALK_ENTRIES,
    ...(signal ? { signal } : {}),
  })) {
    if (entry.kind === 'file' && (!scope.matches || scope.matches(entry.relative))) yield entry;
  }
}
