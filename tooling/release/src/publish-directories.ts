// Publishes installed package directories to a registry in this process, several at a time:
// npm-packlist picks a directory's files as `npm pack` would (its `files`: no install-time build
// output), tar packs them, and libnpmpublish sends them through the registry's publish API, as
// `npm publish` does. No script of the packages runs.
import type { Stats } from 'node:fs';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Arborist from '@npmcli/arborist';
import { publish } from 'libnpmpublish';
import packlist from 'npm-packlist';
import pMap from 'p-map';
import pRetry from 'p-retry';
import semver from 'semver';
import { create, type ReadEntry } from 'tar';
import type { LocalRegistry } from './local-registry.js';

interface Manifest {
  name: string;
  version: string;
}

/**
 * Publishes each directory's package. The highest version of a name gets the `latest` tag (what
 * `npm i <name>` installs), whatever order the publishes finish in; the others are tagged
 * `older`.
 */
export async function publishDirectories(
  dirs: readonly string[],
  registry: LocalRegistry,
  concurrency = 8,
): Promise<void> {
  const host = new URL(registry.url).host;
  const manifests = dirs.map((dir) => ({
    dir,
    manifest: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest,
  }));
  const highest = new Map<string, string>();
  for (const { manifest } of manifests) {
    const known = highest.get(manifest.name);
    if (known === undefined || semver.gt(manifest.version, known))
      highest.set(manifest.name, manifest.version);
  }
  await pMap(
    manifests,
    async ({ dir, manifest }) => {
      const options = {
        registry: registry.url,
        [`//${host}/:_authToken`]: registry.token,
        access: 'public' as const,
        defaultTag: highest.get(manifest.name) === manifest.version ? 'latest' : 'older',
      };
      try {
        const tarball = await packDirectory(dir);
        await publishWithRetries(() => publish(manifest as Parameters<typeof publish>[0], tarball, options));
      } catch (error) {
        throw new Error(`publishing ${dir} to the local registry failed: ${(error as Error).message}`);
      }
    },
    { concurrency },
  );
}

/** The package tarball of `dir`: its packlist under `package/`, as `npm pack` makes it. */
async function packDirectory(dir: string): Promise<Buffer> {
  const files = await packlist(await new Arborist({ path: dir }).loadActual(), { path: dir });
  const chunks: Buffer[] = [];
  const stream = create(
    {
      cwd: dir,
      prefix: 'package/',
      portable: true,
      gzip: true,
      // pnpm's files are hard links into its store (and identical files of a package share one):
      // packed as links they would stall tar and make link entries; each is packed as a file.
      filter: (_path: string, stat: Stats | ReadEntry) => {
        if ('nlink' in stat) stat.nlink = 1;
        return true;
      },
    },
    files,
  );
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Connection errors a loaded machine's registry can answer with; worth another attempt. */
const TRANSIENT = /ECONNRESET|ECONNREFUSED|EPIPE|ETIMEDOUT|socket hang up/;

/**
 * One publish, tried again (with backoff) after a connection error. The registry may have stored
 * the package before the connection broke: on a later attempt, "already present" (409) is that
 * first attempt's success.
 */
async function publishWithRetries(attempt: () => Promise<unknown>): Promise<void> {
  let tries = 0;
  await pRetry(
    async () => {
      tries += 1;
      try {
        await attempt();
      } catch (error) {
        const { code, message } = error as { code?: string; message?: string };
        if (tries > 1 && code === 'E409') return;
        if (TRANSIENT.test(`${code ?? ''} ${message ?? ''}`)) throw error;
        throw new pRetry.AbortError(error as Error);
      }
    },
    { retries: 3, minTimeout: 500 },
  );
}
