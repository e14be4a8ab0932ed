// `pnpm release`'s command line: what it says for --help and for input it cannot use. The
// release itself (version, build, publish) runs in registry.test.ts against a real registry.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('../release.mjs', import.meta.url));

function release(...args: string[]) {
  return spawnSync(process.execPath, [SCRIPT, ...args], { encoding: 'utf8', timeout: 10_000 });
}

describe('pnpm release', () => {
  it('--help says what it runs and which options it takes', () => {
    const run = release('--help');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(
      /^usage: pnpm release \[--registry <url>\] \[--no-version\] \[--tag <dist-tag>\]/,
    );
    for (const words of ['changeset version', 'pnpm -r publish', '$npm_config_registry', '_authToken']) {
      expect(run.stdout).toContain(words);
    }
  });

  it.each([
    [['--bogus'], "Unknown option '--bogus'"],
    [['--registry', 'not a url'], 'the registry "not a url" is not a URL (e.g. http://127.0.0.1:4873)'],
    [
      ['--registry', 'ftp://127.0.0.1:4873'],
      'the registry "ftp://127.0.0.1:4873" must be an http: or https: URL',
    ],
    [['--tag', ''], '--tag needs a dist-tag name'],
    [['extra'], "Unexpected argument 'extra'. This command does not take positional arguments"],
    [['--registry'], "Option '--registry <value>' argument missing"],
  ])('%j: exits 2 saying what is wrong, before it runs anything', (args, message) => {
    const run = release(...args);
    expect(run.status).toBe(2);
    expect(run.stderr).toBe(`release: ${message} (pnpm release --help lists the options)\n`);
    expect(run.stdout).toBe('');
  });
});
