import picomatch from 'picomatch';

export type ToolNameFilter = (toolName: string) => boolean;

/**
 * Builds the allow/deny test for a server's tool names. Patterns are picomatch globs matched
 * against the tool's own MCP name (not the exposed `<server>__<tool>` name); `*` matches any run
 * of characters, including `/` and `.`. A deny match wins; no allow list means "allow all".
 */
export function createToolFilter(
  allow: readonly string[] | undefined,
  deny: readonly string[] | undefined,
): ToolNameFilter {
  const options = { dot: true, bash: true } as const;
  const allowMatch = allow && allow.length > 0 ? picomatch([...allow], options) : undefined;
  const denyMatch = deny && deny.length > 0 ? picomatch([...deny], options) : undefined;
  return (toolName) => {
    if (denyMatch?.(toolName)) return false;
    return allowMatch ? allowMatch(toolName) : true;
  };
}
