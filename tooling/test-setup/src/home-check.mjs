// Whether `pnpm test` changed anything under the real home. The tests get a home of their own
// (tooling/vitest/isolated-home.ts); this check is what shows that nothing slipped past it: a
// listing of every path under the home (size and mtime of files and links) before the run and
// after, skipping only the caches the tools that run the tests write there themselves.
import { lstatSync, readdirSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';

/** Paths under the home that the run may change, each with why. */
export const HOME_EXCLUSIONS = [
  {
    path: '.npm/_cacache',
    why: "npm's download cache (npm ci of tooling/conformance, the install-size bench)",
  },
  { path: '.npm/_logs', why: "npm's debug log, one file per npm command" },
  { path: '.npm/_update-notifier-last-checked', why: 'when npm last looked for a newer npm' },
  {
    path: '.local/share/pnpm',
    why: "pnpm's content-addressed store (the bench packs and installs packages)",
  },
  { path: '.cache/pnpm', why: "pnpm's package metadata cache" },
  { path: '.local/state/pnpm', why: 'when pnpm last looked for a newer pnpm' },
  { path: '.cache/biome', why: 'Biome (biome check, every lint task) makes its cache directory on each run' },
];

/**
 * How many paths a snapshot lists at most (AGENT_TEST_HOME_CHECK_LIMIT). A home with more is
 * listed level by level down to the deepest level that fits; where tests write (`~/.config/x`,
 * `~/.local/state/x/y`) is near the top.
 */
export const DEFAULT_LIMIT = 500_000;

/**
 * The exclusions in force: HOME_EXCLUSIONS, the repository when it lives under the home, and
 * the paths AGENT_TEST_HOME_IGNORE names (relative to the home, `:`-separated), for a machine
 * where something besides the tests writes under the home while they run.
 */
export function exclusions(home, repoDir, env = process.env) {
  const list = [...HOME_EXCLUSIONS];
  const inRepo = relative(home, repoDir);
  if (inRepo !== '' && !inRepo.startsWith('..') && !isAbsolute(inRepo)) {
    list.push({
      path: inRepo.split(sep).join('/'),
      why: 'the repository itself: the build and the tests write in it',
    });
  }
  for (const path of (env.AGENT_TEST_HOME_IGNORE ?? '').split(':')) {
    const trimmed = path.trim().replace(/\/+$/, '');
    if (trimmed !== '') list.push({ path: trimmed, why: 'named by AGENT_TEST_HOME_IGNORE' });
  }
  return list;
}

/**
 * Every path under `home` but the excluded ones, level by level: `entries` maps a relative
 * path to "size mtime" ("dir" for a directory), `depth` is the deepest level listed whole.
 */
export function snapshotHome(home, options = {}) {
  const excluded = new Set((options.exclusions ?? HOME_EXCLUSIONS).map((e) => e.path.split('/').join(sep)));
  const limit = options.limit ?? DEFAULT_LIMIT;
  const maxDepth = options.maxDepth ?? Number.POSITIVE_INFINITY;
  const entries = new Map();
  let level = [''];
  let depth = 0;
  while (level.length > 0 && depth < maxDepth) {
    const found = listLevel(home, level, excluded);
    if (entries.size + found.size > limit) break;
    for (const [path, state] of found) entries.set(path, state);
    level = [...found].filter(([, state]) => state === 'dir').map(([path]) => path);
    depth += 1;
  }
  return { entries, depth: level.length === 0 ? Number.POSITIVE_INFINITY : depth };
}

function listLevel(home, dirs, excluded) {
  const found = new Map();
  for (const dir of dirs) {
    let children;
    try {
      children = readdirSync(join(home, dir), { withFileTypes: true });
    } catch {
      continue; // unreadable: nothing the tests could have written either
    }
    for (const child of children) {
      const path = dir === '' ? child.name : join(dir, child.name);
      if (excluded.has(path)) continue;
      if (child.isDirectory()) {
        found.set(path, 'dir');
        continue;
      }
      try {
        const stat = lstatSync(join(home, path));
        found.set(path, `${stat.size} ${stat.mtimeMs}`);
      } catch {
        // gone between readdir and lstat
      }
    }
  }
  return found;
}

/** A directory made only to hold an excluded path (`.cache` for `.cache/biome`) is no change. */
function holdsExclusion(path, excludedPaths) {
  return excludedPaths.some((excluded) => excluded.startsWith(`${path}${sep}`));
}

/**
 * What changed between two snapshots, sorted by path: `added <path>`, `removed <path>`,
 * `changed <path>`; down to the deepest level both listed whole.
 */
export function homeChanges(before, after, options = {}) {
  const excludedPaths = (options.exclusions ?? HOME_EXCLUSIONS).map((e) => e.path.split('/').join(sep));
  const depth = Math.min(before.depth, after.depth);
  const within = (path) => path.split(sep).length <= depth;
  const changes = [];
  for (const [path, state] of after.entries) {
    if (!within(path)) continue;
    const was = before.entries.get(path);
    if (was === undefined) {
      if (!(state === 'dir' && holdsExclusion(path, excludedPaths))) changes.push(`added ${path}`);
    } else if (was !== state) changes.push(`changed ${path}`);
  }
  for (const path of before.entries.keys()) {
    if (within(path) && !after.entries.has(path)) changes.push(`removed ${path}`);
  }
  return changes.sort((a, b) => a.slice(a.indexOf(' ')).localeCompare(b.slice(b.indexOf(' '))));
}
