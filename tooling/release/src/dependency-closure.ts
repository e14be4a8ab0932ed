// The third-party packages an install of the public packages needs, taken from what pnpm already
// installed in the workspace: each `node_modules/.pnpm/<id>/node_modules/<name>` directory holds
// the files of that published version, so publishing it to the local registry gives npm the same
// package it would fetch from npmjs.org, with no network.
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';

interface Manifest {
  name: string;
  version: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

export interface DependencyClosure {
  /** `name@version` -> the installed package's directory. */
  packages: Map<string, string>;
  /** Optional dependencies and peers not installed here (other platforms' binaries, optional peers). */
  absent: string[];
}

function readManifest(dir: string): Manifest {
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;
}

/** Node's lookup: `<dir>/node_modules/<name>`, then in each parent, as `require` would find it. */
function installedDir(from: string, name: string): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return realpathSync(candidate);
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * Every package that the packages in `roots` (directories) depend on, directly or not
 * (dependencies, optional dependencies and peers that are installed), and the packages named
 * in `also` (a README's `npm i openai zod`: as installed for the first root that has them),
 * except the workspace's own (`skip`). A missing non-optional dependency is an error: the
 * workspace install is incomplete.
 */
export function dependencyClosure(
  roots: readonly string[],
  also: readonly string[],
  skip: ReadonlySet<string>,
): DependencyClosure {
  const packages = new Map<string, string>();
  const absent = new Set<string>();
  const visit = (dir: string, names: Iterable<string>, required: ReadonlySet<string>) => {
    for (const name of names) {
      if (skip.has(name)) continue;
      const found = installedDir(dir, name);
      if (found === undefined) {
        if (required.has(name)) throw new Error(`${name}, a dependency of ${dir}, is not installed`);
        absent.add(name);
        continue;
      }
      const manifest = readManifest(found);
      const key = `${manifest.name}@${manifest.version}`;
      if (packages.has(key)) continue;
      packages.set(key, found);
      visitManifest(found, manifest);
    }
  };
  const visitManifest = (dir: string, manifest: Manifest) => {
    const required = new Set(Object.keys(manifest.dependencies ?? {}));
    const names = new Set([
      ...required,
      ...Object.keys(manifest.optionalDependencies ?? {}),
      ...Object.keys(manifest.peerDependencies ?? {}),
    ]);
    // A name in both dependencies and optionalDependencies is optional (npm's rule).
    for (const name of Object.keys(manifest.optionalDependencies ?? {})) required.delete(name);
    visit(dir, names, required);
  };
  for (const root of roots) visitManifest(root, readManifest(root));
  for (const name of also) {
    const root = roots.find((dir) => installedDir(dir, name) !== undefined);
    if (root === undefined) throw new Error(`${name} is installed for none of the workspace's packages`);
    visit(root, [name], new Set([name]));
  }
  return { packages, absent: [...absent].sort() };
}
