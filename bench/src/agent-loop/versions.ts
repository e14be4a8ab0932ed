import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BENCH_DIR } from './paths.js';

/** The installed version of a package bench depends on, read from its package.json now. */
export function installedVersion(name: string): string {
  try {
    const manifest = JSON.parse(
      readFileSync(join(BENCH_DIR, 'node_modules', name, 'package.json'), 'utf8'),
    ) as {
      version?: unknown;
    };
    return typeof manifest.version === 'string' ? manifest.version : 'unknown';
  } catch {
    return 'not installed';
  }
}

/** `name@version` for each package, in order, without repeats. */
export function versionsOf(names: Iterable<string>): string[] {
  return [...new Set(names)].map((name) => `${name}@${installedVersion(name)}`);
}
