import { createRequire } from 'node:module';
import type picomatchType from 'picomatch';

// The one place tool-name globs are compiled (MCP `allowTools` / `denyTools`, an agent's and a
// provider's `toolsAllowed` / `toolsDenied`, `approval.tools`). `*` matches any run of
// characters, `/` and `.` included; `?`, `[...]` and `{a,b}` work as in bash.

const OPTIONS = { dot: true, bash: true } as const;

/** picomatch, loaded by the first list of globs (a run without globs never loads it). */
let picomatch: typeof picomatchType | undefined;

/** Whether a name matches any of the globs; undefined when there are none. */
export type ToolNameMatcher = (toolName: string) => boolean;

/** The matcher of a list of tool-name globs, or undefined for an empty or absent list. */
export function toolNameMatcher(globs: readonly string[] | undefined): ToolNameMatcher | undefined {
  if (globs === undefined || globs.length === 0) return undefined;
  picomatch ??= createRequire(import.meta.url)('picomatch') as typeof picomatchType;
  return picomatch([...globs], OPTIONS);
}

export type ToolNameFilter = (toolName: string) => boolean;

/** Allow and deny globs in one test: a deny match wins; no allow list means "allow all". */
export function createToolFilter(
  allow: readonly string[] | undefined,
  deny: readonly string[] | undefined,
): ToolNameFilter {
  const allowMatch = toolNameMatcher(allow);
  const denyMatch = toolNameMatcher(deny);
  return (toolName) => {
    if (denyMatch?.(toolName)) return false;
    return allowMatch ? allowMatch(toolName) : true;
  };
}
