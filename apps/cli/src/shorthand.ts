import { statSync } from 'node:fs';

/**
 * `agent <file.ai> [prompt] [options]` (how a `#!/usr/bin/env agent` file runs itself) is
 * `agent run <file.ai> ...`: when the first user argument is not a command name and names an
 * existing file, or ends with `.ai` (so a mistyped agent file gets `no such file` from `run`,
 * not `unknown command`), `run` is put in front of it.
 */
export function expandShorthand(args: readonly string[], commands: readonly string[]): string[] {
  const first = args[0];
  if (first === undefined || first.startsWith('-') || commands.includes(first)) return [...args];
  return first.endsWith('.ai') || isFile(first) ? ['run', ...args] : [...args];
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
