import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { errorMessage } from '@agent/protocol/util';
import { CliError } from '../cli-error.js';
import { CLI_EXIT } from '../exit-codes.js';
import { version } from '../main.js';

/** One file of a new project: where it goes, what it holds, and a line for the listing. */
export interface ProjectFile {
  /** Relative to the project directory, `/`-separated. */
  path: string;
  content: string;
  mode: number;
  /** What the file is, for the list `agent init` prints. */
  about: string;
}

// The templates ship in the package (`files` must list `templates`); this file runs from
// `dist/`, so they are one level up. Dotfiles are stored without their dot: npm leaves a
// `.gitignore` out of a published tarball.
const TEMPLATES = new URL('../templates/init/', import.meta.url);

const TEMPLATE_FILES: ReadonlyArray<{ template: string; path: string; mode?: number; about: string }> = [
  {
    template: 'agent.json',
    path: 'agent.json',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the config file's own syntax.
    about: 'the OpenAI provider; its key is read from ${OPENAI_API_KEY}, never written here',
  },
  {
    template: 'agent.ai',
    path: 'agent.ai',
    mode: 0o755,
    about: 'the agent: its model, limits and prompt (runs itself: ./agent.ai "...")',
  },
  { template: 'env.example', path: '.env.example', about: 'the variables agent.json reads, without values' },
  { template: 'gitignore', path: '.gitignore', about: 'keeps node_modules and .env out of git' },
  { template: 'README.md', path: 'README.md', about: 'how to run the agent and its test' },
  {
    template: 'test/agent.test.mjs',
    path: 'test/agent.test.mjs',
    about: "runs the agent against the testkit's scripted model (no key needed)",
  },
];

/** The files `agent init` writes into `dir`, in the order it lists them. */
export function projectFiles(dir: string): ProjectFile[] {
  const files: ProjectFile[] = TEMPLATE_FILES.map((file) => ({
    path: file.path,
    content: readTemplate(file.template),
    mode: file.mode ?? 0o644,
    about: file.about,
  }));
  const versions = { cli: `^${version()}`, testkit: `^${testkitVersion()}` };
  files.push({
    path: 'package.json',
    content: packageJson(packageName(dir), versions),
    mode: 0o644,
    about: `npm test runs the test; @agent/cli ${versions.cli}, @agent/testkit ${versions.testkit}`,
  });
  return files;
}

function readTemplate(name: string): string {
  const url = new URL(name, TEMPLATES);
  try {
    return readFileSync(url, 'utf8');
  } catch (error) {
    throw new CliError(
      `the project templates are missing from this installation (${fileURLToPath(url)}: ${errorMessage(error)}); reinstall @agent/cli`,
      CLI_EXIT.internal,
    );
  }
}

/** The version of the `@agent/testkit` this CLI runs with (it may differ from the CLI's own). */
function testkitVersion(): string {
  const require = createRequire(import.meta.url);
  return (require('@agent/testkit/package.json') as { version: string }).version;
}

function packageJson(name: string, versions: { cli: string; testkit: string }): string {
  const manifest = {
    name,
    version: '0.1.0',
    private: true,
    type: 'module',
    scripts: { test: 'node --test' },
    devDependencies: { '@agent/cli': versions.cli, '@agent/testkit': versions.testkit },
  };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

/**
 * An npm package name from the directory's name: lower case, characters npm refuses become
 * `-`, no leading `.` or `_`, at most 214 characters; `my-agent` when nothing is left.
 */
export function packageName(dir: string): string {
  const name = basename(dir)
    .toLowerCase()
    .replace(/[^a-z0-9._~-]+/g, '-')
    .replace(/^[._-]+/, '')
    .slice(0, 214);
  return name === '' ? 'my-agent' : name;
}
