import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Environment variable that overrides where recorded provider streams are read from. */
export const FIXTURES_DIR_ENV = 'AGENT_FIXTURES_DIR';

/**
 * Directory of the recorded provider streams that `{ replay }` steps name: `$AGENT_FIXTURES_DIR`
 * when set, else `fixtures/provider-streams` inside this package (its root is found by walking up
 * to its `package.json` from `src/` or `dist/`), which the published package ships too.
 */
export function defaultFixturesDir(): string {
  const fromEnv = process.env[FIXTURES_DIR_ENV];
  if (fromEnv !== undefined && fromEnv !== '') return resolve(fromEnv);
  return join(packageRoot(), 'fixtures', 'provider-streams');
}

function packageRoot(): string {
  const start = dirname(fileURLToPath(import.meta.url));
  let dir = start;
  for (;;) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return resolve(start, '..');
    dir = parent;
  }
}
