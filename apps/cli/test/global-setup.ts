// Builds what the end-to-end tests spawn: the CLI bin (tsup, when dist is missing or older
// than src) and, when their dist is missing, the workspace packages it imports at run time.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const cliDir = fileURLToPath(new URL('..', import.meta.url));
const repoDir = join(cliDir, '..', '..');
const bin = join(cliDir, 'dist', 'agent.js');

function newestMtime(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

function cliIsStale(): boolean {
  if (!existsSync(bin)) return true;
  const built = statSync(bin).mtimeMs;
  const inputs = [join(cliDir, 'src'), join(cliDir, 'tsup.config.ts'), join(cliDir, 'package.json')];
  return inputs.some((input) => newestMtime(input) > built);
}

/** Workspace packages the bin loads from their dist (tsup keeps dependencies external). */
const RUNTIME_PACKAGES = [
  'protocol',
  'xml-transport',
  'final-report',
  'tool-output',
  'core',
  'providers',
  'mcp',
  'runtime',
  'testkit',
];

export default function setup(): void {
  const missing = RUNTIME_PACKAGES.filter(
    (name) => !existsSync(join(repoDir, 'packages', name, 'dist', 'index.js')),
  );
  if (missing.length > 0) {
    const turbo = join(repoDir, 'node_modules', '.bin', 'turbo');
    execFileSync(turbo, ['run', 'build', '--filter=@agent/cli^...', '--output-logs=errors-only'], {
      cwd: repoDir,
      stdio: 'inherit',
      env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' },
    });
  }
  if (cliIsStale()) {
    const require = createRequire(import.meta.url);
    const tsup = join(dirname(require.resolve('tsup/package.json')), 'dist', 'cli-default.js');
    execFileSync(process.execPath, [tsup, '--silent'], { cwd: cliDir, stdio: 'inherit' });
  }
  if (!existsSync(bin)) throw new Error(`the CLI was not built: ${bin} is missing`);
}
