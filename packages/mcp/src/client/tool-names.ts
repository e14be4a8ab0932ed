import { createHash } from 'node:crypto';

/** Longest tool name every supported provider accepts. */
export const MAX_TOOL_NAME_LENGTH = 64;

const UNSAFE = /[^A-Za-z0-9_-]/g;
const HASH_LENGTHS = [8, 16, 32] as const;

function sanitise(raw: string): string {
  let clean = raw.replace(UNSAFE, '_');
  // Some providers (Gemini) also want the first character to be a letter or `_`.
  if (!/^[A-Za-z_]/.test(clean)) clean = `_${clean}`;
  return clean;
}

function hashed(clean: string, raw: string, hashLength: number): string {
  const digest = createHash('sha256').update(raw).digest('hex').slice(0, hashLength);
  return `${clean.slice(0, MAX_TOOL_NAME_LENGTH - hashLength - 1)}_${digest}`;
}

/**
 * Maps MCP tool names to the names the model sees: `<server>__<tool>` (or the bare tool name),
 * reduced to letters, digits, `_` and `-`, at most 64 characters.
 *
 * A name that had to be truncated, or that would collide with another tool's name, gets a short
 * stable hash of its original spelling appended. A name already safe and unique is kept as is,
 * so the result depends only on the set of names, never on their order.
 */
export function exposedToolNames(
  server: string,
  tools: readonly string[],
  options: { prefix?: boolean } = {},
): Map<string, string> {
  const prefix = options.prefix ?? true;
  const unique = [...new Set(tools)].sort();
  const raws = new Map(unique.map((tool) => [tool, prefix ? `${server}__${tool}` : tool]));
  const groups = new Map<string, string[]>();
  for (const [tool, raw] of raws) {
    const clean = sanitise(raw);
    groups.set(clean, [...(groups.get(clean) ?? []), tool]);
  }
  const result = new Map<string, string>();
  const taken = new Set<string>();
  const needHash: { tool: string; raw: string; clean: string }[] = [];
  for (const [clean, members] of groups) {
    for (const tool of members) {
      const raw = raws.get(tool) ?? tool;
      const keeps = clean.length <= MAX_TOOL_NAME_LENGTH && (members.length === 1 || raw === clean);
      if (keeps) {
        result.set(tool, clean);
        taken.add(clean);
      } else {
        needHash.push({ tool, raw, clean });
      }
    }
  }
  for (const { tool, raw, clean } of needHash) {
    let name = '';
    for (const length of HASH_LENGTHS) {
      name = hashed(clean, raw, length);
      if (!taken.has(name)) break;
    }
    result.set(tool, name);
    taken.add(name);
  }
  return result;
}
