import type { Dirent } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { confineExisting } from '../confine.js';
import { FsToolError, safeFsError } from '../fs-errors.js';
import type { FsRoot } from '../root.js';
import { integerArg, optionalString, type ToolArguments } from '../tool-arguments.js';

async function describeLink(root: FsRoot, path: string, name: string): Promise<string> {
  try {
    const real = await realpath(path);
    if (!root.contains(real)) return `${name}@ (link leading outside the root)`;
    const info = await stat(real);
    return info.isDirectory() ? `${name}@/ (link to a directory)` : `${name}@ (link, ${info.size} bytes)`;
  } catch {
    return `${name}@ (broken link)`;
  }
}

/** `ListDir`: the entries of one directory, directories marked with `/`, files with their size. */
export async function listDirTool(root: FsRoot, args: ToolArguments, signal?: AbortSignal): Promise<string> {
  const target = await confineExisting(root, optionalString(args, 'path') ?? '.');
  const maxEntries = integerArg(args, 'maxEntries', { min: 1, max: 10_000, fallback: 1000 });
  let entries: Dirent[];
  try {
    entries = await readdir(target.real, { withFileTypes: true });
  } catch (error) {
    throw safeFsError(error, target.display);
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const lines: string[] = [];
  for (const entry of entries.slice(0, maxEntries)) {
    signal?.throwIfAborted();
    const full = join(target.real, entry.name);
    if (entry.isDirectory()) lines.push(`${entry.name}/`);
    else if (entry.isSymbolicLink()) lines.push(await describeLink(root, full, entry.name));
    else if (entry.isFile()) {
      const size = await stat(full).then(
        (info) => `${info.size} bytes`,
        () => 'size unknown',
      );
      lines.push(`${entry.name} (${size})`);
    } else lines.push(`${entry.name} (special file)`);
  }
  if (entries.length === 0) return `[${target.display}: empty directory]`;
  const more = entries.length > maxEntries ? `; showing the first ${maxEntries}` : '';
  if (lines.length === 0) throw new FsToolError(`"${target.display}" could not be listed.`);
  return [`[${target.display}: ${entries.length} entries${more}]`, ...lines].join('\n');
}
