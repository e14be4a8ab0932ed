#!/usr/bin/env node
// `pnpm release`: version (changesets), build, publish every public workspace package, against
// any registry. pnpm publishes, so `workspace:` ranges become the versions they name.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const REPO = fileURLToPath(new URL('../..', import.meta.url));

const USAGE = `usage: pnpm release [--registry <url>] [--no-version] [--tag <dist-tag>]

Releases every public package of the workspace (packages/*, apps/cli, apps/server):
  1. changeset version   applies the pending changesets: versions, changelogs, internal ranges
                         (skipped with --no-version: publish the versions as they are)
  2. build               builds every package (turbo; cached builds are reused)
  3. pnpm -r publish     publishes each public package whose version the registry does not have
                         yet; its workspace: ranges become the versions they name

--registry <url>   where to publish (http or https); default: $npm_config_registry, else the
                   registry npm is configured with (npmjs.org)
--no-version       skip step 1 (the repository's package.json files are left as they are)
--tag <dist-tag>   the dist-tag to publish under (default: latest)

Authentication is npm's: a token for the registry in ~/.npmrc, or in the file that
$npm_config_userconfig names (//host:port/:_authToken=...).`;

function fail(message) {
  process.stderr.write(`release: ${message} (pnpm release --help lists the options)\n`);
  process.exit(2);
}

function parseOptions(argv) {
  try {
    return parseArgs({
      args: argv,
      options: {
        registry: { type: 'string' },
        'no-version': { type: 'boolean' },
        tag: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (error) {
    return fail(error.message);
  }
}

function registryUrl(given) {
  const value = given ?? process.env.npm_config_registry;
  if (value === undefined || value === '') return undefined;
  let url;
  try {
    url = new URL(value);
  } catch {
    return fail(`the registry "${value}" is not a URL (e.g. http://127.0.0.1:4873)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    fail(`the registry "${value}" must be an http: or https: URL`);
  }
  return url.href;
}

function step(title, command, args, env) {
  process.stdout.write(`release: ${title}\n`);
  const run = spawnSync(command, args, { cwd: REPO, stdio: 'inherit', env });
  if (run.error !== undefined || run.status !== 0) {
    const why = run.error?.message ?? `exited ${run.status ?? run.signal}`;
    process.stderr.write(`release: ${title} failed: ${command} ${args.join(' ')}: ${why}\n`);
    process.exit(1);
  }
}

const options = parseOptions(process.argv.slice(2));
if (options.help === true) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
if (options.tag === '') fail('--tag needs a dist-tag name');
const registry = registryUrl(options.registry);
const env = registry === undefined ? process.env : { ...process.env, npm_config_registry: registry };

if (options['no-version'] !== true) step('changeset version', 'pnpm', ['exec', 'changeset', 'version'], env);
step('build', process.execPath, ['tooling/turbo.mjs', 'run', 'build', '--output-logs=errors-only'], env);
step(
  `publish to ${registry ?? 'the configured registry'}`,
  'pnpm',
  [
    '-r',
    'publish',
    '--access',
    'public',
    // The release publishes what step 1 just versioned, before anyone commits it.
    '--no-git-checks',
    ...(registry === undefined ? [] : ['--registry', registry]),
    ...(options.tag === undefined ? [] : ['--tag', options.tag]),
  ],
  env,
);
