// What the tests need from outside the repository, in one list. The preflight of `pnpm test`
// checks it (and installs what is missing when it may), tooling/turbo.mjs folds what it finds
// into turbo's cache keys, and a test that cannot run without one of them skips with the reason
// this list gives (tooling/vitest/skip.ts). Plain Node (no dependencies): it runs before
// anything is built, and the preflight's test copies it into an empty directory.
import { accessSync, constants, realpathSync, statSync } from 'node:fs';
import { delimiter, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository this file belongs to (src/ -> test-setup/ -> tooling/ -> the repository). */
export const REPO_DIR = fileURLToPath(new URL('../../../', import.meta.url));

const CONFORMANCE = 'tooling/conformance';

/** Debian's chromium, or the one CHROMIUM_PATH names. */
export function chromiumPath(env = process.env) {
  return env.CHROMIUM_PATH || '/usr/bin/chromium';
}

/** @type {readonly import('./requirements.d.mts').Requirement[]} */
export const REQUIREMENTS = [
  {
    id: 'redis-server',
    program: 'redis-server',
    debian: 'redis-server',
    neededBy:
      "testkit's startRedisServer: the cache, queue, session-store and server tests, and the cache-hit benchmark",
  },
  {
    id: 'chromium',
    file: chromiumPath,
    debian: 'chromium',
    neededBy: "apps/server's viewer tests in a headless browser (playwright-core drives it)",
  },
  {
    id: 'tmux',
    program: 'tmux',
    debian: 'tmux',
    neededBy: "apps/cli's tests of the interactive terminal (approval prompts, live progress)",
  },
  {
    id: 'script',
    program: 'script',
    debian: 'bsdutils',
    neededBy: "apps/cli's tests on a pseudo-terminal (the status line, Markdown on a terminal)",
  },
  {
    id: 'ps',
    program: 'ps',
    debian: 'procps',
    neededBy: "tool-output's test of telling a reused pid from its owner without /proc",
  },
  {
    id: 'mkfifo',
    program: 'mkfifo',
    debian: 'coreutils',
    neededBy: "the runtime's and apps/cli's tests that agent files never block on a named pipe",
  },
  {
    id: 'grep',
    program: 'grep',
    debian: 'grep',
    neededBy: "bench's mcp-grep suite (grep is the baseline it compares with)",
  },
  {
    id: 'sh',
    program: 'sh',
    debian: 'dash',
    neededBy: "apps/cli's tests that go through a shell (tmux's command, a #!/bin/sh wrapper)",
  },
  {
    id: 'openssl',
    program: 'openssl',
    debian: 'openssl',
    neededBy:
      "http-tools' test of an https API that redirects to http (a self-signed certificate made at test time)",
  },
  {
    id: 'conformance',
    label: 'the MCP conformance suite',
    npmPrefix: CONFORMANCE,
    files: ['node_modules/.bin/node', 'node_modules/@modelcontextprotocol/conformance/dist/index.js'],
    neededBy:
      'the MCP conformance tests of packages/mcp and packages/headends, which run the suite on Node 22',
  },
];

function isExecutableFile(path) {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The executable `program` on env.PATH, or undefined. */
export function findProgram(program, env = process.env) {
  const dirs = (env.PATH ?? '').split(delimiter).filter((dir) => dir !== '');
  return dirs.map((dir) => join(dir, program)).find(isExecutableFile);
}

/** The paths that make up `requirement` on this machine, or undefined when it is missing. */
export function locate(requirement, env = process.env, repoDir = REPO_DIR) {
  if (requirement.program !== undefined) {
    const found = findProgram(requirement.program, env);
    return found === undefined ? undefined : [found];
  }
  if (requirement.file !== undefined) {
    const path = requirement.file(env);
    return isExecutableFile(path) ? [path] : undefined;
  }
  const paths = requirement.files.map((file) => join(repoDir, requirement.npmPrefix, file));
  return paths.every((path) => statSync(path, { throwIfNoEntry: false })?.isFile()) ? paths : undefined;
}

/** Where the requirement was looked for, for a message: "not on PATH", "no executable at ...". */
export function whereMissing(requirement, env = process.env) {
  if (requirement.program !== undefined) return 'not on PATH';
  if (requirement.file !== undefined) {
    return `no executable at ${requirement.file(env)} (set CHROMIUM_PATH to use another)`;
  }
  return `not installed in ${requirement.npmPrefix}/node_modules`;
}

/** The command that installs the requirement (`sudo` unless `root`). */
export function installCommand(requirements, { root = true } = {}) {
  const sudo = root ? '' : 'sudo ';
  const packages = requirements.flatMap((r) => (r.debian === undefined ? [] : [r.debian]));
  const prefixes = requirements.flatMap((r) => (r.npmPrefix === undefined ? [] : [r.npmPrefix]));
  const lines = [];
  if (packages.length > 0) {
    lines.push(`${sudo}apt-get update && ${sudo}apt-get install -y ${[...new Set(packages)].join(' ')}`);
  }
  for (const prefix of new Set(prefixes)) lines.push(`npm ci --prefix ${prefix}`);
  return lines;
}

/** How messages name a requirement: its label, else its id (the program's name). */
export function labelOf(requirement) {
  return requirement.label ?? requirement.id;
}

export function requirement(id) {
  const found = REQUIREMENTS.find((r) => r.id === id);
  if (found === undefined) {
    throw new Error(`unknown requirement "${id}"; known: ${REQUIREMENTS.map((r) => r.id).join(', ')}`);
  }
  return found;
}

/** Why a test that needs `id` skips here, or undefined when the requirement is present. */
export function missingReason(id, env = process.env, repoDir = REPO_DIR) {
  const wanted = requirement(id);
  if (locate(wanted, env, repoDir) !== undefined) return undefined;
  const install = installCommand([wanted]).join(' && ');
  return `${labelOf(wanted)} is missing, ${whereMissing(wanted, env)}. Install it with: ${install}`;
}

/**
 * One line that changes whenever what the tests find outside the repository changes, or
 * "missing" for what is not there. A program: its resolved path, size and mtime (a Debian
 * package stamps its files with its build time, so another version changes them). The npm
 * project: its files' sizes, by their path in the repository (an `npm ci` of the same lockfile
 * gives the same; worktrees that share turbo's cache agree). Turbo hashes it into the test
 * tasks' keys (turbo.json).
 */
export function fingerprint(env = process.env, repoDir = REPO_DIR) {
  return REQUIREMENTS.map((r) => {
    const paths = locate(r, env, repoDir);
    if (paths === undefined) return `${r.id}=missing`;
    const parts = paths.map((path) => {
      const real = realpathSync(path);
      const stat = statSync(real);
      if (r.npmPrefix !== undefined) return `${relative(repoDir, real)}:${stat.size}`;
      return `${real}:${stat.size}:${Math.trunc(stat.mtimeMs)}`;
    });
    return `${r.id}=${parts.join(',')}`;
  }).join(';');
}
