// `pnpm test` on a bare machine: the preflight, run as a child process in a checkout that has
// nothing but its scripts, with a PATH that holds only `node` (and, where a test says so,
// stand-ins for the programs or for apt-get and npm).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { skipUnless } from '../../vitest/skip.js';
import { REQUIREMENTS } from '../src/requirements.mjs';
import { bareMachine, executable, REPO, runNode } from './helpers.js';

const PROGRAMS = REQUIREMENTS.flatMap((r) => (r.program === undefined ? [] : [r.program]));
const CONFORMANCE_FILES = REQUIREMENTS.flatMap((r) =>
  r.files === undefined ? [] : r.files.map((file) => join(r.npmPrefix, file)),
);
const ALL_PACKAGES = 'redis-server chromium tmux bsdutils procps coreutils grep dash openssl';

/** A bare machine where everything but `absent` is there (stand-ins: the preflight only looks). */
function machineWith(absent: string[] = []) {
  const machine = bareMachine();
  for (const program of PROGRAMS) if (!absent.includes(program)) executable(join(machine.bin, program));
  const chromium = join(machine.bin, '..', 'chromium');
  if (!absent.includes('chromium')) executable(chromium);
  if (!absent.includes('conformance')) {
    for (const file of CONFORMANCE_FILES) executable(join(machine.repo, file));
  }
  return { ...machine, env: { PATH: machine.bin, CHROMIUM_PATH: chromium } };
}

describe('the preflight on a machine without what the tests need', () => {
  test('pnpm test stops in seconds with one message: each missing thing, what needs it, the commands that install it', () => {
    const machine = machineWith([...PROGRAMS, 'chromium', 'conformance']);
    // The runner of `pnpm test`, whose first step is the preflight.
    const scripts = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')).scripts;
    expect(scripts.test).toBe('node tooling/test-setup/src/run.mjs');
    const run = runNode(machine.runner, [], { ...machine.env, AGENT_TEST_NO_INSTALL: '1' });
    expect(run.code).toBe(1);
    expect(run.ms).toBeLessThan(5_000);
    expect(run.stdout).toBe('');
    expect(run.stderr.match(/pnpm test cannot run/g)).toHaveLength(1);
    for (const r of REQUIREMENTS) {
      expect(run.stderr).toContain(`- ${r.label ?? r.id}`);
      expect(run.stderr).toContain(r.neededBy);
    }
    expect(run.stderr).toContain('redis-server (Debian package redis-server), not on PATH');
    expect(run.stderr).toContain('script (Debian package bsdutils), not on PATH');
    expect(run.stderr).toContain(
      `chromium (Debian package chromium), no executable at ${machine.env.CHROMIUM_PATH}`,
    );
    expect(run.stderr).toContain(
      'the MCP conformance suite, not installed in tooling/conformance/node_modules',
    );
    expect(run.stderr).toContain(`  apt-get update && apt-get install -y ${ALL_PACKAGES}\n`);
    expect(run.stderr).toContain('  npm ci --prefix tooling/conformance\n');
    expect(run.stderr).toContain('did not install it itself: AGENT_TEST_NO_INSTALL=1 is set');
  });

  test('names only what is missing', () => {
    const machine = machineWith(['tmux']);
    const run = runNode(machine.preflight, [], { ...machine.env, AGENT_TEST_NO_INSTALL: '1' });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('- tmux (Debian package tmux), not on PATH');
    expect(run.stderr).toContain('apt-get install -y tmux\n');
    expect(run.stderr).not.toContain('redis-server');
    expect(run.stderr).not.toContain('npm ci');
  });

  test('says why it did not install when it cannot: no apt-get on PATH, no npm', () => {
    const machine = machineWith(['redis-server', 'conformance']);
    const run = runNode(machine.preflight, [], machine.env);
    expect(run.code).toBe(1);
    const why = process.getuid?.() === 0 ? 'apt-get is not on PATH' : 'only when it runs as root';
    expect(run.stderr).toContain(why);
    expect(run.stderr).toContain('npm is not on PATH');
  });
});

test('with everything there it passes quietly', () => {
  const machine = machineWith();
  const run = runNode(machine.preflight, [], { ...machine.env, AGENT_TEST_NO_INSTALL: '1' });
  expect(run).toMatchObject({ code: 0, stdout: '', stderr: '' });
  expect(run.ms).toBeLessThan(5_000);
});

describe(
  'installing what is missing',
  skipUnless(process.getuid?.() === 0, 'apt-get runs only as root'),
  () => {
    /** Stand-ins for apt-get and npm that log their arguments and "install" what they are asked for. */
    function installers(machine: ReturnType<typeof machineWith>, aptExit = 0) {
      const log = join(machine.bin, '..', 'installers.log');
      const provides = Object.fromEntries(
        REQUIREMENTS.flatMap((r) =>
          r.debian === undefined
            ? []
            : [
                [
                  r.debian,
                  r.program === undefined ? machine.env.CHROMIUM_PATH : join(machine.bin, r.program),
                ],
              ],
        ),
      );
      const stub = (name: string, body: string) =>
        executable(
          join(machine.bin, name),
          `#!${process.execPath}\nconst fs = require('node:fs');\nconst args = process.argv.slice(2);\n` +
            `const frontend = process.env.DEBIAN_FRONTEND ?? '-';\n` +
            `fs.appendFileSync(${JSON.stringify(log)}, [${JSON.stringify(name)}, ...args, '|', frontend].join(' ') + '\\n');\n${body}`,
        );
      const make = `const make = (p) => { fs.mkdirSync(require('node:path').dirname(p), { recursive: true }); fs.writeFileSync(p, ''); fs.chmodSync(p, 0o755); };\n`;
      stub(
        'apt-get',
        `${make}if (${aptExit} !== 0 && args[0] === 'install') { console.error('E: Unable to locate package tmux'); process.exit(${aptExit}); }\n` +
          `const provides = ${JSON.stringify(provides)};\nif (args[0] === 'install') for (const a of args) if (provides[a]) make(provides[a]);\n`,
      );
      stub(
        'npm',
        `${make}const prefix = args[args.indexOf('--prefix') + 1];\n` +
          `for (const f of ${JSON.stringify(CONFORMANCE_FILES.map((f) => f.replace('tooling/conformance/', '')))}) make(prefix + '/' + f);\n`,
      );
      return () => readFileSync(log, 'utf8').trim().split('\n');
    }

    test('as root it installs the Debian packages (apt-get update once) and runs npm ci, saying what and why', () => {
      const machine = machineWith(['redis-server', 'tmux', 'conformance']);
      const calls = installers(machine);
      const run = runNode(machine.preflight, [], machine.env);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(calls()).toEqual([
        'apt-get update -qq | noninteractive',
        'apt-get install -y -qq redis-server tmux | noninteractive',
        `npm ci --prefix ${join(machine.repo, 'tooling/conformance')} --no-audit --no-fund --loglevel=error | -`,
      ]);
      expect(run.stdout).toMatch(
        /^preflight: installing the Debian packages redis-server tmux with apt-get \(redis-server for testkit's startRedisServer.*; tmux for apps\/cli's tests of the interactive terminal/m,
      );
      expect(run.stdout).toMatch(
        /^preflight: installing tooling\/conformance with npm ci \(for the MCP conformance tests/m,
      );
      expect(existsSync(join(machine.bin, 'tmux'))).toBe(true);
    });

    test('a failed install shows its output and the message', () => {
      const machine = machineWith(['tmux']);
      installers(machine, 100);
      const run = runNode(machine.preflight, [], machine.env);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(
        '`apt-get install -y -qq tmux` failed (exit 100):\nE: Unable to locate package tmux',
      );
      expect(run.stderr).toContain('- tmux (Debian package tmux), not on PATH');
      expect(run.stderr).toContain('apt-get install -y tmux\n');
    });
  },
);
