// The check that fails `pnpm test` when anything under the real home changed, on a fake home.
import { appendFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { exclusions, HOME_EXCLUSIONS, homeChanges, snapshotHome } from '../src/home-check.mjs';
import { tempDir } from './helpers.js';

function write(home: string, path: string, text = 'x'): void {
  mkdirSync(dirname(join(home, path)), { recursive: true });
  writeFileSync(join(home, path), text);
}

/** A home with a few dotfiles, some of them deep. */
function fakeHome(): string {
  const home = tempDir('fake-home-');
  write(home, '.bashrc', 'alias ll="ls -l"\n');
  write(home, '.config/git/config', '[user]\n');
  write(home, '.npm/_logs/old.log');
  write(home, 'src/project/deep/deeper/file.ts');
  return home;
}

describe('the home check', () => {
  test('reports a write under the home, a changed file and a removed one', () => {
    const home = fakeHome();
    const before = snapshotHome(home);
    write(home, '.local/state/agent/sessions.sqlite');
    appendFileSync(join(home, '.bashrc'), 'export EDITOR=vi\n');
    rmSync(join(home, '.config/git/config'));
    expect(homeChanges(before, snapshotHome(home))).toEqual([
      'changed .bashrc',
      'removed .config/git/config',
      // .local and .local/state are new too, but they also hold pnpm's state: not reported.
      'added .local/state/agent',
      'added .local/state/agent/sessions.sqlite',
    ]);
  });

  test('a run that writes nothing changes nothing', () => {
    const home = fakeHome();
    expect(homeChanges(snapshotHome(home), snapshotHome(home))).toEqual([]);
  });

  test('skips the caches npm, pnpm and Biome write themselves, and the directories made to hold them', () => {
    const home = fakeHome();
    const before = snapshotHome(home);
    write(home, '.npm/_cacache/index-v5/ab/cd');
    write(home, '.npm/_logs/new.log');
    write(home, '.cache/biome/x');
    write(home, '.local/share/pnpm/store/v10/index/x');
    write(home, '.npm/_npx/1/package.json');
    expect(homeChanges(before, snapshotHome(home))).toEqual([
      'added .npm/_npx',
      'added .npm/_npx/1',
      'added .npm/_npx/1/package.json',
    ]);
    for (const exclusion of HOME_EXCLUSIONS) expect(exclusion.why).not.toBe('');
  });

  test('a home too big for the limit is compared down to the deepest level both listings hold whole', () => {
    const home = fakeHome();
    const before = snapshotHome(home, { limit: 8 });
    expect(before.depth).toBe(3);
    write(home, '.config/agent.json');
    write(home, 'src/project/deep/deeper/new.ts');
    const after = snapshotHome(home, { limit: 8, maxDepth: before.depth });
    expect(homeChanges(before, after)).toEqual(['added .config/agent.json']);
  });

  test('the repository, when it lives under the home, and AGENT_TEST_HOME_IGNORE are skipped too, each saying why', () => {
    const home = fakeHome();
    const list = exclusions(home, join(home, 'src', 'project'), {
      AGENT_TEST_HOME_IGNORE: '.editor/:.mozilla',
    });
    expect(list.slice(HOME_EXCLUSIONS.length)).toEqual([
      { path: 'src/project', why: 'the repository itself: the build and the tests write in it' },
      { path: '.editor', why: 'named by AGENT_TEST_HOME_IGNORE' },
      { path: '.mozilla', why: 'named by AGENT_TEST_HOME_IGNORE' },
    ]);
    const before = snapshotHome(home, { exclusions: list });
    write(home, 'src/project/dist/index.js');
    write(home, '.editor/history');
    write(home, 'src/other.ts');
    expect(homeChanges(before, snapshotHome(home, { exclusions: list }), { exclusions: list })).toEqual([
      'added src/other.ts',
    ]);
    expect(exclusions(home, '/elsewhere/repo', {}).length).toBe(HOME_EXCLUSIONS.length);
  });
});
