import {
  existsSync,
  lstatSync,
  mkdirSync,
  rmdirSync,
  type Stats,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { errorMessage } from '@agent/protocol/util';
import { usageError } from '../cli-error.js';
import { CLI_EXIT, type CliExitCode } from '../exit-codes.js';
import { type CliIo, writeAndFlush } from '../io.js';
import { type ProjectFile, projectFiles } from './init-files.js';

/**
 * `agent init [dir]`: writes a new project (agent.json, an agent, its test, package.json, ...)
 * into `dir` (default the working directory), creating it when missing. Writes nothing when
 * any of those files exists already, and leaves nothing behind when a write fails.
 */
export async function initCommand(dir: string | undefined, io: CliIo): Promise<CliExitCode> {
  const target = resolve(dir ?? '.');
  const shown = shownPath(target);
  checkDirectory(target, shown);
  const files = projectFiles(target);
  const taken = files.flatMap((file) => takenPaths(target, file.path));
  if (taken.length > 0) {
    throw usageError(
      `not overwriting what is already in ${shown}: ${[...new Set(taken)].join(', ')}; ` +
        'nothing was written (give an empty or new directory: agent init <dir>)',
    );
  }
  writeProject(target, shown, files);
  await writeAndFlush(io.stdout, summary(target, shown, files));
  return CLI_EXIT.success;
}

/** `target` as the user would write it: relative to the working directory when inside it. */
function shownPath(target: string): string {
  const rel = relative(process.cwd(), target);
  if (rel === '') return '.';
  return rel.startsWith('..') ? target : rel;
}

/** The project directory must be a directory, or not exist yet (it is created). */
function checkDirectory(target: string, shown: string): void {
  let stat: Stats;
  try {
    stat = statSync(target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw usageError(`cannot use ${shown} for agent init: ${describeFsError(error)}`);
  }
  if (!stat.isDirectory()) {
    throw usageError(
      `${shown} is a file, not a directory; agent init needs a directory (a missing one is created)`,
    );
  }
}

/** What stands where `path` (relative to the project) or one of its folders would go. */
function takenPaths(target: string, path: string): string[] {
  const parts = path.split('/');
  for (let index = 1; index < parts.length; index++) {
    const folder = parts.slice(0, index).join('/');
    const stat = statOrUndefined(join(target, folder), statSync);
    if (stat === undefined) return [];
    if (!stat.isDirectory()) return [`${folder} (not a directory)`];
  }
  // lstat: a dangling symbolic link is in the way too.
  return statOrUndefined(join(target, path), lstatSync) === undefined ? [] : [path];
}

function statOrUndefined(path: string, stat: typeof statSync | typeof lstatSync): Stats | undefined {
  try {
    return stat(path);
  } catch {
    return undefined;
  }
}

/**
 * Writes every file with exclusive create (a file that appears meanwhile is not overwritten);
 * on any failure removes what it wrote and the directories it made, then reports the failure.
 */
function writeProject(target: string, shown: string, files: readonly ProjectFile[]): void {
  const written: string[] = [];
  const madeDirs: string[] = [];
  try {
    for (const file of files) {
      const path = join(target, ...file.path.split('/'));
      makeDirectory(dirname(path), madeDirs);
      writeFileSync(path, file.content, { flag: 'wx', mode: file.mode });
      written.push(path);
    }
  } catch (error) {
    for (const path of written.reverse()) quietly(() => unlinkSync(path));
    for (const path of madeDirs.reverse()) quietly(() => rmdirSync(path));
    const where = shownPath((error as NodeJS.ErrnoException).path ?? target);
    throw usageError(`cannot write ${where}: ${describeFsError(error)}; nothing was left in ${shown}`);
  }
}

/** Clean-up after a failed write: the failure being reported matters more than its own. */
function quietly(remove: () => void): void {
  try {
    remove();
  } catch {
    // left behind; the error message names the real failure
  }
}

/**
 * Makes `dir` and its missing parents, outermost first, adding each to `made` as it goes (so a
 * failure half-way is undone too). One level at a time: Node's `recursive` mkdir never returns
 * under /proc, where the kernel answers ENOENT for a folder it will not make.
 */
function makeDirectory(dir: string, made: string[]): void {
  const missing: string[] = [];
  for (let path = dir; !existsSync(path); path = dirname(path)) {
    missing.unshift(path);
    if (dirname(path) === path) break;
  }
  for (const path of missing) {
    mkdirSync(path);
    made.push(path);
  }
}

function describeFsError(error: unknown): string {
  switch ((error as NodeJS.ErrnoException).code) {
    case 'EACCES':
    case 'EPERM':
      return 'permission denied (choose a directory you can write in)';
    case 'EROFS':
      return 'the file system is read-only';
    case 'ENOSPC':
      return 'no space left on the device';
    case 'EEXIST':
      return 'it appeared while the project was being written';
    case 'ENOTDIR':
      return 'a part of the path is a file, not a directory';
    default:
      return errorMessage(error);
  }
}

/** What was written, and what to do next. */
function summary(target: string, shown: string, files: readonly ProjectFile[]): string {
  const width = Math.max(...files.map((file) => file.path.length));
  const lines = [
    `Created an agent project in ${shown}:`,
    ...files.map((file) => `  ${file.path.padEnd(width)}  ${file.about}`),
    '',
    'Next steps:',
    ...(target === process.cwd() ? [] : [`  cd ${shellWord(shown)}`]),
    '  npm install',
    '  npm test                       # the agent against a scripted model: no key needed',
    '  export OPENAI_API_KEY=...      # or copy .env.example to .env and fill it in',
    '  npx agent run agent.ai "What is a context window?"',
    '',
  ];
  return lines.join('\n');
}

/** `word` quoted for a POSIX shell when it holds anything but plain path characters. */
function shellWord(word: string): string {
  return /^[\w./@%+=:,-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}
