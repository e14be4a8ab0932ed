// Runs the workspace's turbo with its telemetry off; every root script (and `pnpm turbo ...`)
// goes through here. Turbo has no repository setting for telemetry, only the environment and a
// per-user file, and on a machine where neither says no, its first run prints a notice about
// it. Turning telemetry off (not just hiding the notice) is the honest way to never show it.
// It also says what the tests find outside the repository (redis-server, chromium, tmux, the
// MCP conformance suite, ...: their paths, sizes and mtimes) in AGENT_TEST_PROGRAMS, which
// turbo.json puts in the test tasks' cache keys: a green run is replayed only on a machine
// that has the same programs.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fingerprint } from './test-setup/src/requirements.mjs';

const turbo = createRequire(import.meta.url).resolve('turbo');
const run = spawnSync(process.execPath, [turbo, ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1', AGENT_TEST_PROGRAMS: fingerprint() },
});
if (run.error) throw run.error;
if (run.signal) process.kill(process.pid, run.signal);
process.exit(run.status ?? 1);
