// An empty directory where npm runs as a new user's would: its own HOME and XDG directories,
// a global prefix of its own (`npm i -g` lands there), the local registry and nothing else,
// and no trace of the workspace on the PATH.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { isInside } from './workspace-references.js';

export interface Sandbox {
  /** The empty project directory where commands run. */
  readonly project: string;
  /** npm's global prefix: `npm i -g` puts bins in `<prefix>/bin`. */
  readonly prefix: string;
  readonly home: string;
  readonly env: NodeJS.ProcessEnv;
}

export interface SandboxSettings {
  registry: string;
  /** One npm cache for every sandbox of a run: each tarball is fetched once. */
  npmCache: string;
  /** The repository: PATH entries inside it are dropped. */
  repo: string;
  /**
   * Where ccache keeps its objects for this run, when ccache is installed: the run's first
   * better-sqlite3 compile is a real one, the later ones (same sources) take seconds.
   */
  compilerCache?: string;
}

/** Node's own prefix (`/usr` for `/usr/bin/node`): its headers are in `<prefix>/include/node`. */
const NODE_PREFIX = dirname(dirname(process.execPath));

export function createSandbox(dir: string, settings: SandboxSettings): Sandbox {
  const project = join(dir, 'project');
  const prefix = join(dir, 'global');
  const home = join(dir, 'home');
  for (const path of [project, prefix, home]) mkdirSync(path, { recursive: true });
  const path = (process.env.PATH ?? '')
    .split(delimiter)
    .filter((entry) => entry !== '' && !isInside(resolve(entry), settings.repo));
  const env: NodeJS.ProcessEnv = {
    PATH: [join(prefix, 'bin'), ...path].join(delimiter),
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    ...(process.env.TMPDIR === undefined ? {} : { TMPDIR: process.env.TMPDIR }),
    LANG: 'C.UTF-8',
    npm_config_registry: settings.registry,
    npm_config_cache: settings.npmCache,
    npm_config_prefix: prefix,
    npm_config_userconfig: join(home, '.npmrc'),
    // better-sqlite3 compiles from source against Node's headers instead of downloading a
    // prebuilt binary: no network beyond loopback.
    npm_config_build_from_source: 'true',
    npm_config_nodedir: NODE_PREFIX,
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
    ...(settings.compilerCache === undefined
      ? {}
      : { CC: 'ccache cc', CXX: 'ccache c++', CCACHE_DIR: settings.compilerCache }),
  };
  return { project, prefix, home, env };
}

export interface Ran {
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  cwd: string;
  /** The whole environment: nothing is inherited from this process. */
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
}

/** Runs a command to its end; a non-zero exit or a timeout throws with the end of what it printed. */
export function runCommand(command: string, args: readonly string[], options: RunOptions): Promise<Ran> {
  const described = `${command} ${args.join(' ')} in ${options.cwd}`;
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group, so a timeout (or this process's exit) ends npm and its builds too.
      detached: true,
    });
    const killGroup = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // The group is gone already.
      }
    };
    process.once('exit', killGroup);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const printed = () => `\n--- stdout\n${stdout.slice(-4000)}\n--- stderr\n${stderr.slice(-4000)}`;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, options.timeoutMs);
    const settled = () => {
      clearTimeout(timer);
      process.removeListener('exit', killGroup);
    };
    child.once('error', (error) => {
      settled();
      reject(new Error(`${described} could not start: ${error.message}`));
    });
    child.once('close', (code, signal) => {
      settled();
      if (code === 0) return resolvePromise({ stdout, stderr });
      const why = timedOut ? `did not end in ${options.timeoutMs} ms` : `ended with ${code ?? signal}`;
      reject(new Error(`${described} ${why}${printed()}`));
    });
  });
}

/** Runs a command in the sandbox's project directory, with its environment (plus `env`). */
export function runIn(
  sandbox: Sandbox,
  command: string,
  args: readonly string[],
  timeoutMs: number,
  env: NodeJS.ProcessEnv = {},
): Promise<Ran> {
  return runCommand(command, args, { cwd: sandbox.project, env: { ...sandbox.env, ...env }, timeoutMs });
}

/** Runs a documented command line as written, through the shell. */
export function runLine(sandbox: Sandbox, line: string, timeoutMs: number): Promise<Ran> {
  return runIn(sandbox, 'sh', ['-c', line], timeoutMs);
}
