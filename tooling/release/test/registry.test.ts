// The proof that the packages reach users outside this repository: a real npm registry on
// loopback (verdaccio, no uplinks), every public package published to it by the release flow
// (`pnpm release --no-version --registry <url>`), then npm alone, in empty directories with
// their own HOME and npm cache and nothing of the workspace on the PATH, installs what the
// READMEs say and runs it.
//
// Why it takes minutes: npm compiles better-sqlite3 (the cache's SQLite driver) from source in
// every install that pulls @agent/cache (the CLI, the server twice, @agent/runtime,
// @agent/queue, @agent/cache), 80-130 s each on two busy cores, because a prebuilt binary would
// come from the network. When ccache is installed the compiler goes through it, with a cache
// of this run only: the first compile is a real one, the others take seconds. The installs
// share one npm cache (each tarball is fetched once) and run two at a time (vitest.config.ts).
// Publishing the ~250 third-party packages the installs need takes under a minute. The timings
// of a run are written to test-results/registry-timings.json.
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finalReport, toolCall } from '@agent/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findProgram } from '../../test-setup/src/requirements.mjs';
import { commentedOutputs, readmeBlock, stripTypes } from '../../vitest/readme-example.js';
import { demoReport, HELLO_ANSWER, MODEL_URL_ENV, writeHelloAgent, writeScript } from '../src/agent-files.js';
import { dependencyClosure } from '../src/dependency-closure.js';
import { type InstallLine, readmeInstallLines } from '../src/install-lines.js';
import { type LocalRegistry, startLocalRegistry } from '../src/local-registry.js';
import { createSandbox, runCommand, runIn, runLine, type Sandbox } from '../src/npm-sandbox.js';
import { publishDirectories } from '../src/publish-directories.js';
import { type ServerProcess, startServerProcess } from '../src/server-process.js';
import { publicPackages, REPO } from '../src/workspace-packages.js';
import { workspaceReferences } from '../src/workspace-references.js';

const MINUTE = 60_000;
/** One install, better-sqlite3's compile included, on a busy two-core machine. */
const INSTALL_TIMEOUT = 8 * MINUTE;

const packages = publicPackages();
const ours = new Set(packages.map((p) => p.name));
const versionOf = new Map(packages.map((p) => [p.name, p.version]));
const lines = readmeInstallLines(REPO, ours);
const linesOf = (readme: string) => lines.filter((line) => line.places.some((p) => p.startsWith(readme)));
const coreLines = linesOf('packages/core/README.md');
const cliLines = linesOf('apps/cli/README.md');
/** The lines the scenarios below run; every other README line runs alone in its own directory. */
const scenarioLines = new Set([...coreLines, ...cliLines].map((line) => line.command));

/** Whether installing `name` compiles better-sqlite3 (it, or one of ours it depends on, needs it). */
function compilesNative(name: string): boolean {
  const manifest = packages.find((p) => p.name === name)?.manifest;
  const dependencies = Object.keys((manifest?.dependencies ?? {}) as Record<string, string>);
  return (
    dependencies.includes('better-sqlite3') ||
    dependencies.some((dep) => ours.has(dep) && compilesNative(dep))
  );
}
const compiles = (line: InstallLine) => line.packages.some(compilesNative);
/** Those that compile last: with ccache they wait for the first compile (below). */
const otherLines = lines
  .filter((line) => !scenarioLines.has(line.command))
  .sort((a, b) => Number(compiles(a)) - Number(compiles(b)));

// With ccache, the installs that compile wait for the first one (the CLI's) and reuse its objects.
const ccache = findProgram('ccache') !== undefined;
let firstCompileDone: () => void = () => {};
const firstCompile = new Promise<void>((resolve) => {
  firstCompileDone = resolve;
});
async function afterFirstCompile(compiling: boolean): Promise<void> {
  if (ccache && compiling) await firstCompile;
}

const root = mkdtempSync(join(tmpdir(), 'agent-registry-test-'));
const npmCache = join(root, 'npm-cache');
const timings: Record<string, number> = {};
let registry: LocalRegistry | undefined;
let sandboxes = 0;

async function timed<T>(name: string, work: () => Promise<T>): Promise<T> {
  const start = performance.now();
  try {
    return await work();
  } finally {
    timings[name] = Math.round(performance.now() - start);
  }
}

function sandbox(): Sandbox {
  if (registry === undefined) throw new Error('the local registry did not start');
  return createSandbox(join(root, `sandbox-${++sandboxes}`), {
    registry: registry.url,
    npmCache,
    repo: REPO,
    ...(ccache ? { compilerCache: join(root, 'ccache') } : {}),
  });
}

/** The installed copy of `name`: in the project, or under the global prefix. */
function installedManifest(box: Sandbox, name: string, global: boolean): { version: string } {
  const base = global ? join(box.prefix, 'lib') : box.project;
  return JSON.parse(readFileSync(join(base, 'node_modules', name, 'package.json'), 'utf8'));
}

/** Runs the install commands one after the other in the sandbox, timed under `label`. */
function install(box: Sandbox, label: string, commands: readonly string[]): Promise<void> {
  return timed(label, async () => {
    for (const command of commands) await runLine(box, command, INSTALL_TIMEOUT);
  });
}

/** The installed testkit's `agent-testkit-server` answering `script`; its base URL is `ready[1]`. */
function startScriptedServer(box: Sandbox, bin: string, script: string): Promise<ServerProcess> {
  return startServerProcess(bin, ['--script', script], {
    cwd: box.project,
    env: box.env,
    ready: /listening on (http:\S+)/,
    timeoutMs: 20_000,
  });
}

function expectNoWorkspaceReferences(box: Sandbox, ...more: string[]): void {
  expect(workspaceReferences([box.project, box.prefix, ...more], REPO)).toEqual([]);
}

beforeAll(async () => {
  registry = await timed('registry start', () => startLocalRegistry(join(root, 'registry')));
  // No uplinks: the third-party packages the installs need are published first, from the
  // directories pnpm installed them in (plus those the README lines name beside ours).
  const readmeExtras = [...new Set(lines.flatMap((line) => line.packages))].filter((name) => !ours.has(name));
  const closure = dependencyClosure(
    packages.map((p) => p.dir),
    readmeExtras,
    ours,
  );
  timings['third-party packages'] = closure.packages.size;
  await timed('publish third-party packages', () =>
    publishDirectories([...closure.packages.values()], registry!),
  );
  const home = join(root, 'release-home');
  mkdirSync(home, { recursive: true });
  await timed('pnpm release', () =>
    runCommand('pnpm', ['release', '--no-version', '--registry', registry!.url], {
      cwd: REPO,
      // The token for the registry; a HOME of its own so nothing is written under the real one.
      env: {
        ...process.env,
        HOME: home,
        npm_config_userconfig: registry!.userconfig,
        npm_config_cache: join(home, 'npm-cache'),
      },
      timeoutMs: 10 * MINUTE,
    }),
  );
}, 15 * MINUTE);

afterAll(async () => {
  await registry?.stop();
  const results = join(REPO, 'tooling', 'release', 'test-results');
  mkdirSync(results, { recursive: true });
  writeFileSync(join(results, 'registry-timings.json'), `${JSON.stringify(timings, null, 2)}\n`);
  // Hundreds of megabytes: the npm cache and the installed trees with their native builds.
  rmSync(root, { recursive: true, force: true });
}, 5 * MINUTE);

describe.concurrent('installed from a registry with npm alone', () => {
  it('the READMEs document installs of the library and the CLI, which the scenarios run', () => {
    expect(coreLines.map((line) => line.command)).toContain('npm i @agent/core @agent/providers openai zod');
    expect(cliLines.map((line) => line.command)).toContain('npm i -g @agent/cli');
    expect(lines.length).toBeGreaterThan(scenarioLines.size);
  });

  it(
    'npm i -g @agent/cli: an agent file runs through its #!/usr/bin/env agent line, agent demo works, and agent init makes a project whose npm test passes',
    async () => {
      const box = sandbox();
      try {
        await install(box, 'cli: npm i -g', [
          ...cliLines.map((line) => line.command),
          'npm i -g @agent/testkit',
        ]);
      } finally {
        firstCompileDone();
      }
      expect(realpathSync(join(box.prefix, 'bin', 'agent'))).toBe(
        join(box.prefix, 'lib', 'node_modules', '@agent', 'cli', 'bin', 'agent.js'),
      );
      const { agentFile, script } = writeHelloAgent(box.project);
      const model = await startScriptedServer(box, join(box.prefix, 'bin', 'agent-testkit-server'), script);
      try {
        const run = await runIn(box, agentFile, ['Say hello'], MINUTE, {
          [MODEL_URL_ENV]: `${model.ready[1]}/v1`,
        });
        expect(run.stdout.trim()).toBe(HELLO_ANSWER);
      } finally {
        await model.stop();
      }
      // The session went into the SQLite store: better-sqlite3, compiled by npm, works.
      expect(statSync(join(box.home, '.local', 'state', 'agent', 'sessions.sqlite')).size).toBeGreaterThan(0);
      const demo = await runIn(box, 'agent', ['demo'], MINUTE);
      expect(JSON.parse(demo.stdout)).toEqual(demoReport(REPO));
      expect(demo.stderr.split('\n')[0]).toMatch(/scripted/);
      // agent init: a new project whose own `npm test` (the agent against the scripted model)
      // passes once `npm install` brought @agent/cli and @agent/testkit from the registry.
      const project = join(box.project, 'my-agent');
      await runIn(box, 'agent', ['init', project], MINUTE);
      await timed('init: npm install', () =>
        runCommand('npm', ['install'], { cwd: project, env: box.env, timeoutMs: INSTALL_TIMEOUT }),
      );
      const tested = await runCommand('npm', ['test'], { cwd: project, env: box.env, timeoutMs: 2 * MINUTE });
      expect(tested.stdout).toMatch(/^# pass 1$/m);
      expect(tested.stdout).toMatch(/^# fail 0$/m);
      expectNoWorkspaceReferences(box);
    },
    3 * INSTALL_TIMEOUT + 3 * MINUTE,
  );

  it(
    "packages/core/README.md's install lines, then its examples run as written against the testkit's model server",
    async () => {
      const box = sandbox();
      await install(
        box,
        'core: npm i',
        coreLines.map((line) => line.command),
      );
      const readme = new URL('../../../packages/core/README.md', import.meta.url);
      const example = readmeBlock(readme, { heading: '## Example' }).code;
      writeFileSync(join(box.project, 'example.mjs'), stripTypes(example));
      const script = writeScript(box.project, [
        toolCall('get_weather', { city: 'Paris' }),
        finalReport({ city: 'Paris', celsius: 18 }),
      ]);
      // The scripted server as the README's reader gets it: the installed testkit's bin.
      const model = await startScriptedServer(
        box,
        join(box.project, 'node_modules', '.bin', 'agent-testkit-server'),
        script,
      );
      try {
        const run = await runIn(box, process.execPath, ['example.mjs'], MINUTE, {
          OPENAI_API_KEY: 'sk-registry-test',
          OPENAI_BASE_URL: `${model.ready[1]}/v1`,
        });
        expect(run.stdout.trim().split('\n')).toEqual(commentedOutputs(example));
      } finally {
        await model.stop();
      }
      const testing = readmeBlock(readme, { heading: '## Testing an agent' }).code;
      writeFileSync(join(box.project, 'testing.mjs'), stripTypes(testing));
      const run = await runIn(box, process.execPath, ['testing.mjs'], MINUTE);
      expect(run.stdout.trim().split('\n')).toEqual(commentedOutputs(testing));
      expectNoWorkspaceReferences(box);
    },
    INSTALL_TIMEOUT + 2 * MINUTE,
  );

  it.each(otherLines.map((line) => [line.command, line] as const))(
    '%s (README line) installs in an empty directory, and what it installs loads',
    async (_command: string, line: InstallLine) => {
      const box = sandbox();
      await afterFirstCompile(compiles(line));
      await install(box, line.command, [line.command]);
      const global = /\s(?:-g|--global)\b/.test(line.command);
      for (const name of line.packages.filter((pkg) => ours.has(pkg))) {
        expect(installedManifest(box, name, global).version, `${name} (${line.places.join(', ')})`).toBe(
          versionOf.get(name),
        );
        if (global) {
          const bins = Object.keys(packages.find((p) => p.name === name)?.manifest.bin ?? {});
          for (const bin of bins) await runIn(box, bin, ['--help'], MINUTE);
        } else {
          await runIn(
            box,
            process.execPath,
            ['--input-type=module', '-e', `await import('${name}')`],
            MINUTE,
          );
        }
      }
      expectNoWorkspaceReferences(box);
    },
    // It may wait for the CLI's install (the first compile) before its own.
    2 * INSTALL_TIMEOUT + MINUTE,
  );

  it(
    'npx @agent/server starts from the registry and answers /health',
    async () => {
      const box = sandbox();
      writeHelloAgent(box.project);
      await afterFirstCompile(compilesNative('@agent/server'));
      const token = 'registry-test-token';
      const server = await timed('server: npx (install and start)', () =>
        startServerProcess(
          'npx',
          ['--yes', '@agent/server', '--agent', './hello.ai', '--api', '0', '--token', token],
          {
            cwd: box.project,
            env: { ...box.env, [MODEL_URL_ENV]: 'http://127.0.0.1:9/v1' },
            ready: /rest listening on (http:\/\/[^/\s]+)/,
            timeoutMs: INSTALL_TIMEOUT,
          },
        ),
      );
      try {
        const health = await fetch(`${server.ready[1]}/health`, { signal: AbortSignal.timeout(10_000) });
        expect(health.status).toBe(200);
        const agents = await fetch(`${server.ready[1]}/v1/agents`, {
          headers: { authorization: `Bearer ${token}` },
          signal: AbortSignal.timeout(10_000),
        });
        expect(agents.status).toBe(200);
        expect(JSON.stringify(await agents.json())).toContain('hello');
      } finally {
        await server.stop();
      }
      expectNoWorkspaceReferences(box, join(npmCache, '_npx'));
    },
    2 * INSTALL_TIMEOUT + 2 * MINUTE,
  );
});
