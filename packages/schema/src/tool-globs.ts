import picomatch from 'picomatch';

// The one place tool-name globs are compiled (MCP `allowTools` / `denyTools`, an agent's and a
// provider's `toolsAllowed` / `toolsDenied`, `approval.tools`). `*` matches any run of
// characters, `/` and `.` included; `?`, `[...]` and `{a,b}` work as in bash.

const OPTIONS = { dot: true, bash: true } as const;

/** Whether a name matches any of the globs; undefined when there are none. */
export type ToolNameMatcher = (toolName: string) => boolean;

/** The matcher of a list of tool-name globs, or undefined for an empty or absent list. */
export function toolNameMatcher(globs: readonly string[] | undefined): ToolNameMatcher | undefined {
  return globs !== undefined && globs.length > 0 ? picomatch([...globs], OPTIONS) : undefined;
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
