// The install lines the READMEs (and docs/install.md) document (`npm i @agent/core ...` in a
// ```sh block), read with the README checker's own parser, so a line added to one of them is one
// the registry test runs.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fencedBlocks, installedPackages } from '../../vitest/readme-check.js';

export interface InstallLine {
  /** The command as written, without its trailing comment. */
  command: string;
  /** The packages it installs. */
  packages: string[];
  /** Where it is written: `packages/core/README.md:11`, for each README that has it. */
  places: string[];
}

const SKIPPED_DIRS = new Set(['node_modules', '.git', 'dist', '.turbo', 'test-results']);

function readmes(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isDirectory()) return SKIPPED_DIRS.has(entry.name) ? [] : readmes(join(dir, entry.name));
    return entry.name === 'README.md' ? [join(dir, entry.name)] : [];
  });
}

/**
 * The install lines of every README and of docs/install.md that name at least one of `ours`
 * (the workspace's public packages), identical ones once. A line that installs none of them
 * (the root README's `npm i -g pnpm@...`, the way to build from source) is not about
 * installing this project.
 */
export function readmeInstallLines(repo: string, ours: ReadonlySet<string>): InstallLine[] {
  const lines = new Map<string, InstallLine>();
  const installDoc = join(repo, 'docs', 'install.md');
  for (const file of [...readmes(repo).sort(), ...(existsSync(installDoc) ? [installDoc] : [])]) {
    for (const fence of fencedBlocks(readFileSync(file, 'utf8'))) {
      fence.code.split('\n').forEach((text, index) => {
        const packages = installedPackages([{ ...fence, code: text }]);
        if (!packages.some((name) => ours.has(name))) return;
        const command = text.replace(/\s+#.*$/, '').trim();
        const place = `${relative(repo, file)}:${fence.line + index}`;
        const known = lines.get(command);
        if (known === undefined) lines.set(command, { command, packages, places: [place] });
        else known.places.push(place);
      });
    }
  }
  return [...lines.values()];
}
