import { statSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { CliError } from './cli-error.js';
import { agentFilesIn } from './commands/list.js';
import { CLI_EXIT } from './exit-codes.js';

/** How many `.ai` names a "no such file" message lists when none is a likely typo. */
const LISTED_NAMES = 5;

/**
 * Throws `no such file: aks.ai; did you mean ask.ai?` (exit 7) when `file` does not exist,
 * naming the closest `.ai` file of that directory, or listing a few when none is close.
 */
export async function assertAgentFileExists(file: string, cwd = process.cwd()): Promise<void> {
  try {
    statSync(resolve(cwd, file));
    return;
  } catch {
    // Missing (or unreachable): say so below.
  }
  const dir = dirname(file);
  const names = aiFilesIn(resolve(cwd, dir));
  // The suggestion is written the way the user wrote the path (`aks.ai`, `./aks.ai`, `sub/aks.ai`).
  const shown = (name: string) => (file === basename(file) ? name : `${dir}/${name}`);
  let hint = '';
  if (names.length > 0) {
    const { closestName } = await import('@agent/runtime');
    const best = closestName(basename(file), names);
    if (best !== undefined) hint = `; did you mean ${shown(best)}?`;
    else {
      const more = names.length > LISTED_NAMES ? `, ... (${names.length} in all)` : '';
      hint = `; the .ai files in ${dir}: ${names.slice(0, LISTED_NAMES).join(', ')}${more}`;
    }
  }
  throw new CliError(`no such file: ${file}${hint}`, CLI_EXIT.configuration);
}

function aiFilesIn(dir: string): string[] {
  try {
    return agentFilesIn(dir).map((path) => basename(path));
  } catch {
    return [];
  }
}
