// The workspace's public packages (the ones `pnpm release` publishes): packages/* and apps/*
// without `private`.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = resolve(fileURLToPath(new URL('../../..', import.meta.url)));

export interface PublicPackage {
  dir: string;
  name: string;
  version: string;
  manifest: Record<string, unknown> & { bin?: Record<string, string>; files?: string[] };
}

export function publicPackages(): PublicPackage[] {
  return ['packages', 'apps'].flatMap((group) =>
    readdirSync(join(REPO, group))
      .map((name) => join(REPO, group, name))
      .filter((dir) => existsSync(join(dir, 'package.json')))
      .map((dir) => ({ dir, manifest: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) }))
      .filter(({ manifest }) => manifest.private !== true)
      .map(({ dir, manifest }) => ({ dir, name: manifest.name, version: manifest.version, manifest })),
  );
}
