// What in an installed tree still leans on the workspace: a symlink into the repository, a
// `file:`, `link:` or `workspace:` dependency in a package.json, a lockfile entry that is a link
// or names a local path, or the repository's path anywhere in the lockfile.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { basename, dirname, join, resolve, sep } from 'node:path';

const RUNTIME_FIELDS = ['dependencies', 'optionalDependencies', 'peerDependencies'];
const LOCAL_SPEC = /^(?:file|link|workspace):/;
/** An installed package's own manifest (not a fixture somewhere inside it). */
const INSTALLED_MANIFEST = /\/node_modules\/(?:@[^/]+\/)?[^/]+\/package\.json$/;

/** Whether `path` is `dir` or below it. */
export function isInside(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir.endsWith(sep) ? dir : `${dir}${sep}`);
}

function walk(dir: string, visit: (path: string, isLink: boolean) => void): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isSymbolicLink()) visit(path, true);
    else if (entry.isDirectory()) walk(path, visit);
    else visit(path, false);
  }
}

/** Local specs among what npm installs for a manifest: a project's devDependencies too. */
function packageJsonProblems(path: string, fields: readonly string[]): string[] {
  const manifest = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  return fields.flatMap((field) =>
    Object.entries((manifest[field] ?? {}) as Record<string, string>)
      .filter(([, spec]) => typeof spec === 'string' && LOCAL_SPEC.test(spec))
      .map(([name, spec]) => `${path}: ${field}.${name} is "${spec}"`),
  );
}

function lockfileProblems(path: string, repo: string): string[] {
  const text = readFileSync(path, 'utf8');
  const problems = text.includes(repo) ? [`${path} names the repository (${repo})`] : [];
  const lock = JSON.parse(text) as { packages?: Record<string, { link?: boolean; resolved?: string }> };
  for (const [key, entry] of Object.entries(lock.packages ?? {})) {
    if (entry.link === true) problems.push(`${path}: "${key}" is a link to ${entry.resolved}`);
    else if (entry.resolved !== undefined && !/^https?:/.test(entry.resolved)) {
      problems.push(`${path}: "${key}" resolves to ${entry.resolved}`);
    }
  }
  return problems;
}

/**
 * Every way the trees under `dirs` point back into `repo`; an empty list when none does. Each
 * dir is a project (its package.json and lockfile), an npm prefix or cache holding installed
 * packages, or both.
 */
export function workspaceReferences(dirs: readonly string[], repo: string): string[] {
  const problems: string[] = [];
  for (const dir of dirs) {
    const project = join(dir, 'package.json');
    walk(dir, (path, isLink) => {
      if (isLink) {
        const target = resolve(dirname(path), readlinkSync(path));
        if (isInside(target, repo)) problems.push(`${path} links to ${target}`);
        return;
      }
      const name = basename(path);
      if (path === project)
        problems.push(...packageJsonProblems(path, [...RUNTIME_FIELDS, 'devDependencies']));
      else if (INSTALLED_MANIFEST.test(path)) problems.push(...packageJsonProblems(path, RUNTIME_FIELDS));
      if (name === 'package-lock.json' || name === 'npm-shrinkwrap.json') {
        problems.push(...lockfileProblems(path, repo));
      }
    });
  }
  return problems;
}
