// For the apps' end-to-end tests, which spawn a built bin: builds the workspace packages the
// bin loads at run time when their dist is missing (turbo), rebuilds any of them whose sources
// are newer than their dist, and rebuilds the app's own bin when it is missing or stale (tsup).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export interface AppBinOptions {
  /** The app's folder (where its package.json and tsup.config.ts are). */
  appDir: string;
  /** The built bin, relative to appDir (e.g. `dist/agent.js`). */
  bin: string;
  /** The app's package name, for turbo's `--filter=<name>^...`. */
  packageName: string;
  /** Workspace packages (folder names under packages/) the bin imports from their dist. */
  runtimePackages: readonly string[];
}

function newestMtime(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

function isStale(dir: string, built: string): boolean {
  if (!existsSync(built)) return true;
  const inputs = [join(dir, 'src'), join(dir, 'tsup.config.ts'), join(dir, 'package.json')];
  const time = statSync(built).mtimeMs;
  return inputs.some((input) => existsSync(input) && newestMtime(input) > time);
}

function tsup(dir: string): void {
  const require = createRequire(import.meta.url);
  const cli = join(dirname(require.resolve('tsup/package.json')), 'dist', 'cli-default.js');
  execFileSync(process.execPath, [cli, '--silent'], { cwd: dir, stdio: 'inherit' });
}

export function ensureAppBin(options: AppBinOptions): void {
  const repoDir = join(options.appDir, '..', '..');
  const packageDir = (name: string) => join(repoDir, 'packages', name);
  const missing = options.runtimePackages.filter(
    (name) => !existsSync(join(packageDir(name), 'dist', 'index.js')),
  );
  if (missing.length > 0) {
    const turbo = join(repoDir, 'tooling', 'turbo.mjs');
    execFileSync(
      process.execPath,
      [turbo, 'run', 'build', `--filter=${options.packageName}^...`, '--output-logs=errors-only'],
      { cwd: repoDir, stdio: 'inherit' },
    );
  }
  for (const name of options.runtimePackages) {
    if (isStale(packageDir(name), join(packageDir(name), 'dist', 'index.js'))) tsup(packageDir(name));
  }
  const bin = join(options.appDir, options.bin);
  if (isStale(options.appDir, bin)) tsup(options.appDir);
  if (!existsSync(bin)) throw new Error(`${options.packageName} was not built: ${bin} is missing`);
}
