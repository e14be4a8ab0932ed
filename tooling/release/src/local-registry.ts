// A real npm registry on loopback for the install tests: verdaccio in its own process, with its
// storage in a temporary directory and no uplinks, so nothing is ever fetched from outside;
// what an install needs must have been published to it first.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServerProcess } from './server-process.js';

export interface LocalRegistry {
  /** `http://127.0.0.1:PORT/` */
  readonly url: string;
  /** The publishing user's token. */
  readonly token: string;
  /** An npm user config (`.npmrc`) holding the token for this registry. */
  readonly userconfig: string;
  /** Stops the registry (SIGTERM, then SIGKILL after 3 s); idempotent. */
  stop(): Promise<void>;
}

const PROCESS_SCRIPT = fileURLToPath(new URL('./registry-process.mjs', import.meta.url));

function configYaml(dir: string): string {
  return [
    `storage: ${JSON.stringify(join(dir, 'storage'))}`,
    'auth:',
    '  htpasswd:',
    `    file: ${JSON.stringify(join(dir, 'htpasswd'))}`,
    '    max_users: 10',
    // No uplinks: the registry answers from what was published to it, and nothing else.
    'uplinks: {}',
    'packages:',
    "  '**':",
    '    access: $all',
    '    publish: $authenticated',
    'web:',
    '  enable: false',
    // The CLI's tarball (with the demo) and the largest dependencies are several megabytes.
    'max_body_size: 200mb',
    'log: { type: stdout, format: pretty, level: error }',
    '',
  ].join('\n');
}

/** Starts verdaccio in `dir` (its storage, config and user file go there) on a free loopback port. */
export async function startLocalRegistry(dir: string, startTimeoutMs = 30_000): Promise<LocalRegistry> {
  mkdirSync(dir, { recursive: true });
  const config = join(dir, 'config.yaml');
  writeFileSync(config, configYaml(dir));
  const server = await startServerProcess(process.execPath, [PROCESS_SCRIPT, config], {
    cwd: dir,
    env: {
      ...process.env,
      HOME: dir,
      XDG_CONFIG_HOME: join(dir, 'config'),
      XDG_DATA_HOME: join(dir, 'data'),
    },
    ready: /^listening (\d+)$/m,
    timeoutMs: startTimeoutMs,
    // Its standard input stays open while this process lives: its end stops the registry.
    stdinPipe: true,
  });
  try {
    const port = Number(server.ready[1]);
    const url = `http://127.0.0.1:${port}/`;
    const token = await addUser(url, 'release-test', 'release-test-password');
    const userconfig = join(dir, 'npmrc');
    writeFileSync(userconfig, `//127.0.0.1:${port}/:_authToken=${token}\n`);
    return { url, token, userconfig, stop: server.stop };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

/** Creates a user through the registry's own API (what `npm adduser` does) and returns its token. */
async function addUser(url: string, name: string, password: string): Promise<string> {
  const response = await fetch(new URL(`-/user/org.couchdb.user:${name}`, url), {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name, password }),
    signal: AbortSignal.timeout(10_000),
  });
  const body = (await response.json()) as { token?: string; error?: string };
  if (!response.ok || typeof body.token !== 'string') {
    throw new Error(`the local registry refused to create a user: ${response.status} ${body.error ?? ''}`);
  }
  return body.token;
}
