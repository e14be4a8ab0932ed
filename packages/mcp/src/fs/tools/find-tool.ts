import { stat } from 'node:fs/promises';
import { confineExisting } from '../confine.js';
import { FsToolError, safeFsError } from '../fs-errors.js';
import type { FsRoot } from '../root.js';
import { globMatcher, MAX_WALK_ENTRIES } from '../search-targets.js';
import { integerArg, optionalString, requiredString, type ToolArguments } from '../tool-arguments.js';
import { walk } from '../walk.js';

/** `Find`: paths under a directory whose relative path matches a glob (directories end in `/`). */
export async function findTool(root: FsRoot, args: ToolArguments, signal?: AbortSignal): Promise<string> {
  const pattern = requiredString(args, 'pattern');
  const base = await confineExisting(root, optionalString(args, 'path') ?? '.');
  const maxResults = integerArg(args, 'maxResults', { min: 1, max: 10_000, fallback: 500 });
  const type = optionalString(args, 'type') ?? 'any';
  if (!['file', 'dir', 'any'].includes(type)) {
    throw new FsToolError(`"type" must be one of "file", "dir", "any", got ${JSON.stringify(type)}.`);
  }
  try {
    if (!(await stat(base.real)).isDirectory())
      throw new FsToolError(`"${base.display}" is not a directory.`);
  } catch (error) {
    throw safeFsError(error, base.display);
  }
  const matches = globMatcher(pattern);
  const found: string[] = [];
  let more = false;
  for await (const entry of walk(root, base, {
    maxEntries: MAX_WALK_ENTRIES,
    ...(signal ? { signal } : {}),
  })) {
    if (type !== 'any' && entry.kind !== type) continue;
    if (!matches(entry.relative)) continue;
    if (found.length >= maxResults) {
      more = true;
      break;
    }
    found.push(entry.kind === 'dir' ? `${entry.display}/` : entry.display);
  }
  if (found.length === 0) return root.redact(`No paths match "${pattern}" under "${base.display}".`);
  const note = more ? `; stopped at maxResults=${maxResults}` : '';
  return [...found, `[${found.length} path(s)${note}]`].join('\n');
}
