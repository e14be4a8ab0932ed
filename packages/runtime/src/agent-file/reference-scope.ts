import { realpathSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';

/**
 * Where the files an agent file refers to (includes, schemas, sub-agents) may be: the
 * directory of the top agent file and below, plus the places `allowedPaths` of `agent.json`
 * allows. Symbolic links count by where they lead.
 */
export interface ReferenceScope {
  /** The top agent file's directory (absolute, as given). */
  root: string;
  /** Absolute directories or files allowed besides the root. */
  allowed: readonly string[];
}

export type ScopeCheck =
  | { ok: true; path: string }
  | { ok: false; missing: true }
  /** `target` is outside; `link` is set when a symbolic link at `link` led there. */
  | { ok: false; missing: false; target: string; link?: string };

/** The scope of the agent tree whose top agent file is `agentFile`. */
export function referenceScope(agentFile: string, allowedPaths: readonly string[] = []): ReferenceScope {
  return { root: dirname(resolve(agentFile)), allowed: allowedPaths.map((path) => resolve(path)) };
}

/**
 * Checks `path` against `scope`: first as written (a path outside is refused without being
 * looked at), then with every symbolic link resolved. Returns the resolved path to open.
 */
export function checkInScope(path: string, scope: ReferenceScope): ScopeCheck {
  const target = resolve(path);
  const places = [scope.root, ...scope.allowed];
  if (!places.some((place) => isInside(target, place))) return { ok: false, missing: false, target };
  let real: string;
  try {
    real = realpathSync(target);
  } catch {
    return { ok: false, missing: true };
  }
  if (!places.map(realOrSelf).some((place) => isInside(real, place))) {
    return { ok: false, missing: false, target: real, link: target };
  }
  return { ok: true, path: real };
}

/** Why a path was refused and how to allow it (names paths only). */
export function refusalText(check: { target: string; link?: string }, scope: ReferenceScope): string {
  const where =
    check.link === undefined ? check.target : `${check.link} is a symbolic link to ${check.target}, which`;
  return (
    `${where} is outside ${scope.root} (the top agent file's directory)` +
    `${scope.allowed.length === 0 ? '' : ' and every place allowed by "allowedPaths"'}; ` +
    `to allow it, list it or a directory above it under "allowedPaths" in agent.json, ` +
    `e.g. "allowedPaths": [${JSON.stringify(dirname(check.target))}]`
  );
}

function isInside(path: string, place: string): boolean {
  const rel = relative(place, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
