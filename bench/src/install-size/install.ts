// Packing workspace packages into tarballs, installing packages with npm into an empty project,
// and measuring what landed in its node_modules.
import { execFile } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
/** Bounds on one pack or install (the registry may be slow, never forever). */
const PACK_TIMEOUT_MS = 60_000;
const INSTALL_TIMEOUT_MS = 300_000;

interface Manifest {
  name: string;
  version: string;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

export function readManifest(dir: string): Manifest {
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;
}

/** The workspace packages `names` need (themselves included), by name, from `packages/<dir>`. */
export function workspaceClosure(packagesDir: string, names: readonly string[]): Map<string, string> {
  const dirs = new Map<string, string>();
  for (const entry of readdirSync(packagesDir)) {
    try {
      dirs.set(readManifest(join(packagesDir, entry)).name, join(packagesDir, entry));
    } catch {
      // not a package
    }
  }
  const needed = new Map<string, string>();
  const visit = (name: string) => {
    const dir = dirs.get(name);
    if (dir === undefined || needed.has(name)) return;
    needed.set(name, dir);
    for (const [dep, range] of Object.entries(readManifest(dir).dependencies ?? {}))
      if (range.startsWith('workspace:')) visit(dep);
  };
  for (const name of names) visit(name);
  return needed;
}

/** `pnpm pack` of each package dir into `dest` (workspace ranges become versions); the tarball paths. */
export async function packAll(dirs: Iterable<string>, dest: string): Promise<string[]> {
  mkdirSync(dest, { recursive: true });
  const tarballs: string[] = [];
  for (const dir of dirs) {
    const { stdout } = await run('pnpm', ['pack', '--pack-destination', dest], {
      cwd: dir,
      timeout: PACK_TIMEOUT_MS,
    });
    const file = stdout.trim().split('\n').pop()!;
    tarballs.push(file.startsWith('/') ? file : join(dest, file));
  }
  return tarballs;
}

export interface Installed {
  /** Sum of file sizes. */
  bytes: number;
  /** Space the files take on disk (allocated blocks). */
  diskBytes: number;
  packages: number;
  seconds: number;
}

function sizeOf(path: string): { bytes: number; diskBytes: number } {
  let bytes = 0;
  let diskBytes = 0;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    const full = join(path, entry.name);
    if (entry.isDirectory()) {
      const inner = sizeOf(full);
      bytes += inner.bytes;
      diskBytes += inner.diskBytes;
    } else {
      const stat = lstatSync(full);
      bytes += stat.size;
      diskBytes += stat.blocks * 512;
    }
  }
  return { bytes, diskBytes };
}

/** Packages in a `node_modules` (scoped ones and nested `node_modules` included). */
function countPackages(nodeModules: string): number {
  let count = 0;
  const visit = (dir: string) => {
    count++;
    if (existsSync(join(dir, 'node_modules'))) count += countPackages(join(dir, 'node_modules'));
  };
  for (const entry of readdirSync(nodeModules, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
    const full = join(nodeModules, entry.name);
    if (entry.name.startsWith('@')) for (const scoped of readdirSync(full)) visit(join(full, scoped));
    else visit(full);
  }
  return count;
}

/** What a `node_modules` holds: bytes of its files, their space on disk, and its packages. */
export function measureNodeModules(dir: string): Omit<Installed, 'seconds'> {
  return { ...sizeOf(dir), packages: countPackages(dir) };
}

/**
 * `npm install` of `specs` (names with versions, or tarball paths) into a fresh project in `dir`;
 * `offline` never asks the registry (the cache must hold everything).
 */
export async function installInto(
  dir: string,
  specs: readonly string[],
  offline = false,
): Promise<Installed> {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'install-size', private: true, version: '0.0.0' }),
  );
  const started = performance.now();
  await run(
    'npm',
    [
      'install',
      offline ? '--offline' : '--prefer-offline',
      '--no-audit',
      '--no-fund',
      '--no-package-lock',
      '--loglevel=error',
      ...specs,
    ],
    { cwd: dir, timeout: INSTALL_TIMEOUT_MS, env: { ...process.env, npm_config_update_notifier: 'false' } },
  );
  const seconds = (performance.now() - started) / 1000;
  return { ...measureNodeModules(join(dir, 'node_modules')), seconds };
}
