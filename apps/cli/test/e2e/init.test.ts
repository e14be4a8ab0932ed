import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { skipUnless } from '../../../../tooling/vitest/skip.js';
import { CLI_BIN, REPO_DIR, runCli } from './helpers.js';

// A value no generated file may hold: agent init reads no secret, it writes references.
const SECRET = 'sk-init-e2e-sentinel-0123456789abcdef';
const FILES = [
  '.env.example',
  '.gitignore',
  'README.md',
  'agent.ai',
  'agent.json',
  'package.json',
  'test/agent.test.mjs',
];

// Root ignores file modes: as root, the CLI is run as user nobody to meet a directory it cannot
// write in (which needs this checkout readable by others).
const unprivileged = process.getuid?.() === 0 ? { uid: 65_534, gid: 65_534 } : {};
const canRunUnprivileged =
  spawnSync(process.execPath, [CLI_BIN, '--version'], { ...unprivileged, timeout: 30_000 }).status === 0;

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** A temp dir with its own HOME and XDG dirs, and the environment that points there. */
function sandbox() {
  const root = mkdtempSync(join(tmpdir(), 'agent-init-e2e-'));
  roots.push(root);
  const home = join(root, 'home');
  mkdirSync(home);
  const env = {
    HOME: home,
    XDG_CONFIG_HOME: join(home, 'config'),
    XDG_STATE_HOME: join(home, 'state'),
    XDG_CACHE_HOME: join(home, 'cache'),
  };
  return { root, env };
}

/** Every file below `dir` (relative, `/`-separated) with its content. */
function tree(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    files[relative(dir, path).split('\\').join('/')] = readFileSync(path, 'utf8');
  }
  return files;
}

function versionOf(packageDir: string): string {
  return (JSON.parse(readFileSync(join(REPO_DIR, packageDir, 'package.json'), 'utf8')) as { version: string })
    .version;
}

describe('agent init', () => {
  it('writes a project whose agent.json reads the key from the environment and holds no secret', async () => {
    const { root, env } = sandbox();
    const dir = join(root, 'work', 'my-agent');
    const result = await runCli(['init', dir], { cwd: root, env: { ...env, OPENAI_API_KEY: SECRET } });
    expect(result.code, result.stderr).toBe(0);

    const files = tree(dir);
    expect(Object.keys(files).sort()).toEqual(FILES);
    for (const [path, content] of Object.entries(files)) expect(content, path).not.toContain(SECRET);
    expect(result.stdout + result.stderr).not.toContain(SECRET);

    const config = JSON.parse(files['agent.json']!) as { providers: Record<string, Record<string, unknown>> };
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the config file's own syntax.
    expect(config.providers.openai).toEqual({ type: 'openai', apiKey: '${OPENAI_API_KEY}' });
    const assignments = files['.env.example']!.split('\n').filter((line) => /^\s*[A-Z_]+=/.test(line));
    expect(assignments).toEqual(['OPENAI_API_KEY=']);
    expect(files['.gitignore']!.split('\n')).toEqual(expect.arrayContaining(['node_modules/', '.env']));

    expect(files['agent.ai']!.startsWith('#!/usr/bin/env agent\n---\n')).toBe(true);
    expect(statSync(join(dir, 'agent.ai')).mode & 0o111).not.toBe(0);

    const manifest = JSON.parse(files['package.json']!) as Record<string, unknown>;
    expect(manifest).toMatchObject({
      name: 'my-agent',
      private: true,
      type: 'module',
      scripts: { test: 'node --test' },
      devDependencies: {
        '@agent/cli': `^${versionOf('apps/cli')}`,
        '@agent/testkit': `^${versionOf('packages/testkit')}`,
      },
    });

    // The listing names every file, and the next steps start from where the user stands.
    for (const file of FILES) expect(result.stdout).toContain(file);
    expect(result.stdout).toContain('cd work/my-agent');
    expect(result.stdout).toMatch(/npm install\n\s+npm test/);

    // The CLI accepts what it wrote (with a placeholder key: agent.json needs the variable set).
    const validate = await runCli(['validate', 'agent.ai'], {
      cwd: dir,
      env: { ...env, OPENAI_API_KEY: 'placeholder-not-a-key' },
    });
    expect(validate.code, validate.stderr).toBe(0);
    expect(validate.stdout).toContain('ok agent.ai');
  });

  it('writes into the current directory by default, which may hold other files', async () => {
    const { root, env } = sandbox();
    writeFileSync(join(root, 'notes.txt'), 'mine\n');
    const result = await runCli(['init'], { cwd: root, env });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).not.toContain('cd ');
    const files = tree(root);
    for (const file of FILES) expect(files).toHaveProperty([file]);
    expect(files['notes.txt']).toBe('mine\n');
  });

  it('refuses to overwrite: names every file in the way and writes nothing', async () => {
    const { root, env } = sandbox();
    const dir = join(root, 'project');
    mkdirSync(join(dir, 'test'), { recursive: true });
    writeFileSync(join(dir, 'agent.json'), '{"providers": {}}\n');
    writeFileSync(join(dir, 'test', 'agent.test.mjs'), '// mine\n');
    const before = tree(dir);

    const result = await runCli(['init', 'project'], { cwd: root, env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      'not overwriting what is already in project: agent.json, test/agent.test.mjs',
    );
    expect(result.stderr).toContain('nothing was written');
    expect(result.stdout).toBe('');
    expect(tree(dir)).toEqual(before);
  });

  it('says so when the directory is a file, and leaves it as it was', async () => {
    const { root, env } = sandbox();
    writeFileSync(join(root, 'taken'), 'a file\n');
    const result = await runCli(['init', 'taken'], { cwd: root, env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('taken is a file, not a directory');
    expect(readFileSync(join(root, 'taken'), 'utf8')).toBe('a file\n');
  });

  it(
    'says so when it cannot write in the directory, and leaves nothing',
    skipUnless(
      canRunUnprivileged,
      'it runs the CLI as user nobody, who cannot read this checkout (run as root from a directory only root can read, such as a mktemp -d clone)',
    ),
    async () => {
      const { root, env } = sandbox();
      const locked = join(root, 'locked');
      mkdirSync(locked);
      chmodSync(root, 0o755);
      chmodSync(locked, 0o555);
      const denied = spawnSync(process.execPath, [CLI_BIN, 'init', locked], {
        ...unprivileged,
        cwd: root,
        env: { ...process.env, ...env },
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect(denied.status, denied.stderr).toBe(2);
      expect(denied.stderr).toContain('cannot write locked/agent.json: permission denied');
      expect(readdirSync(locked)).toEqual([]);
    },
  );

  it(
    'ends at once where the kernel will not make the folder',
    skipUnless(existsSync('/proc/self'), 'it needs /proc, where the kernel will not make a folder'),
    async () => {
      const { root, env } = sandbox();
      const result = await runCli(['init', '/proc/self/agent-init'], { cwd: root, env, timeoutMs: 15_000 });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('cannot write /proc/self/agent-init');
    },
  );
});

/**
 * A generated project whose node_modules resolve `@agent/cli` and `@agent/testkit` to this
 * workspace's built packages, laid out as npm installs them (the package folders and the
 * `agent` bin in node_modules/.bin). The registry test installs the published ones instead.
 */
async function linkedProject() {
  const { root, env } = sandbox();
  const dir = join(root, 'project');
  const init = await runCli(['init', dir], { cwd: root, env });
  expect(init.code, init.stderr).toBe(0);
  mkdirSync(join(dir, 'node_modules', '@agent'), { recursive: true });
  mkdirSync(join(dir, 'node_modules', '.bin'));
  symlinkSync(join(REPO_DIR, 'apps', 'cli'), join(dir, 'node_modules', '@agent', 'cli'));
  symlinkSync(join(REPO_DIR, 'packages', 'testkit'), join(dir, 'node_modules', '@agent', 'testkit'));
  const cliManifest = JSON.parse(readFileSync(join(REPO_DIR, 'apps', 'cli', 'package.json'), 'utf8')) as {
    bin: Record<string, string>;
  };
  symlinkSync(
    join('..', '@agent', 'cli', cliManifest.bin.agent!),
    join(dir, 'node_modules', '.bin', 'agent'),
  );
  return { root, dir, env };
}

/** `npm test` in `dir`, as a user runs it: none of the npm settings of the pnpm running this test. */
function npmTest(dir: string, root: string, env: Record<string, string>) {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !/^(npm_|pnpm_)/i.test(key) && key !== 'OPENAI_API_KEY'),
  );
  const result = spawnSync('npm', ['test'], {
    cwd: dir,
    env: {
      ...clean,
      ...env,
      npm_config_cache: join(root, 'npm-cache'),
      npm_config_update_notifier: 'false',
      npm_config_fund: 'false',
    },
    encoding: 'utf8',
    timeout: 50_000,
  });
  return { code: result.status, output: `${result.stdout}${result.stderr}` };
}

describe('the project agent init writes', () => {
  it('passes its npm test at once: the agent runs against the scripted model', async () => {
    const { root, dir, env } = await linkedProject();
    const result = npmTest(dir, root, env);
    expect(result.code, result.output).toBe(0);
    expect(result.output).toContain('ok 1 - agent.ai answers with its final report');
    expect(result.output).toMatch(/# pass 1\n# fail 0/);
  });

  it('fails its npm test when the scripted model answers without a final report', async () => {
    const { root, dir, env } = await linkedProject();
    const testFile = join(dir, 'test', 'agent.test.mjs');
    const original = readFileSync(testFile, 'utf8');
    const broken = original.replace('steps: [finalReport(REPORT)]', 'steps: [{ text: REPORT }]');
    expect(broken).not.toBe(original);
    writeFileSync(testFile, broken);

    const result = npmTest(dir, root, env);
    expect(result.code).not.toBe(0);
    expect(result.output).toContain('not ok 1 - agent.ai answers with its final report');
    // The agent's own words: the model's plain text is not a report.
    expect(result.output).toContain('without tool calls or a final report');
    expect(result.output).toMatch(/# pass 0\n# fail 1/);
  });
});
