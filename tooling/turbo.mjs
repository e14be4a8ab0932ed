// Runs the workspace's turbo with its telemetry off; every root script (and `pnpm turbo ...`)
// goes through here. Turbo has no repository setting for telemetry, only the environment and a
// per-user file, and on a machine where neither says no, its first run prints a notice about
// it. Turning telemetry off (not just hiding the notice) is the honest way to never show it.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

const turbo = createRequire(import.meta.url).resolve('turbo');
const run = spawnSync(process.execPath, [turbo, ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' },
});
if (run.error) throw run.error;
if (run.signal) process.kill(process.pid, run.signal);
process.exit(run.status ?? 1);
