// The workspace's packages (packages/* and apps/*), read once: the README checks link them into
// scratch projects, and the release tooling publishes the public ones.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface WorkspacePackage {
  dir: string;
  name: string;
  version: string;
  manifest: Record<string, unknown> & { private?: boolean; bin?: Record<string, string>; files?: string[] };
}

let cache: WorkspacePackage[] | undefined;

/** Every package of the workspace, with its manifest. */
export function workspacePackageList(): WorkspacePackage[] {
  cache ??= ['packages', 'apps'].flatMap((group) =>
    readdirSync(join(REPO_ROOT, group), { withFileTypes: true })
      .filter(
        (entry) => entry.isDirectory() && existsSync(join(REPO_ROOT, group, entry.name, 'package.json')),
      )
      .map((entry) => {
        const dir = join(REPO_ROOT, group, entry.name);
        const manifest = JSON.parse(
          readFileSync(join(dir, 'package.json'), 'utf8'),
        ) as WorkspacePackage['manifest'];
        return { dir, name: manifest.name as string, version: manifest.version as string, manifest };
      }),
  );
  return cache;
}

/** Package name -> directory, for every package of the workspace. */
export function workspacePackages(): Map<string, string> {
  return new Map(workspacePackageList().map((pkg) => [pkg.name, pkg.dir]));
}
