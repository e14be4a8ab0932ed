import type { ToolDefinition, ToolProvider } from '@agent/protocol';
import { createToolFilter, type ToolNameFilter } from '@agent/schema';

/** `toolsAllowed` / `toolsDenied` of an agent file, or a provider's `allowTools` / `denyTools`. */
export interface AgentToolFilter {
  allowed?: readonly string[];
  denied?: readonly string[];
}

/**
 * The names a pattern may be written against: the exposed name (`fs__Read`, `agent__child`)
 * and, for MCP tools, ai-agent's full name (`mcp__fs__Read`).
 */
function namesOf(provider: ToolProvider, name: string): string[] {
  return provider.kind === 'mcp' ? [name, `mcp__${name}`] : [name];
}

/** One filter's test over every name a tool goes by: denied under any name, allowed under any. */
function compile(filter: AgentToolFilter): { allowed: ToolNameFilter; denied: ToolNameFilter } {
  // An empty list is no list (ai-agent: `[]` allows all, denies none).
  return {
    allowed: createToolFilter(filter.allowed, undefined),
    denied: filter.denied?.length ? createToolFilter(filter.denied, undefined) : () => false,
  };
}

/**
 * Hides the tools the filters exclude: the agent's `toolsAllowed` / `toolsDenied` and those of
 * the providers of its models, on top of the MCP server's own `allowTools` / `denyTools`. All of
 * them must let a tool through (AND). A call to a hidden tool is refused as an unknown tool,
 * never run.
 */
export function filterTools(provider: ToolProvider, filters: readonly AgentToolFilter[]): ToolProvider {
  const tests = filters.map(compile);
  const visible = (name: string) => {
    const names = namesOf(provider, name);
    return tests.every(
      (test) => !names.some((candidate) => test.denied(candidate)) && names.some((n) => test.allowed(n)),
    );
  };
  const filtered: ToolProvider = {
    id: provider.id,
    ...(provider.kind === undefined ? {} : { kind: provider.kind }),
    async listTools(options): Promise<readonly ToolDefinition[]> {
      return (await provider.listTools(options)).filter((tool) => visible(tool.name));
    },
    async execute(call, options) {
      if (!visible(call.name)) {
        return {
          ok: false,
          error: { kind: 'unknown_tool', message: `tool \`${call.name}\` is not available to this agent` },
        };
      }
      return provider.execute(call, options);
    },
  };
  if (provider.instructions !== undefined) filtered.instructions = () => provider.instructions?.();
  return filtered;
}

/** The filters of one agent: its own, then those of each provider its models come from. */
export function agentToolFilters(
  own: AgentToolFilter | undefined,
  providers: Iterable<{ allowTools?: readonly string[]; denyTools?: readonly string[] } | null | undefined>,
): AgentToolFilter[] {
  const filters: AgentToolFilter[] = own === undefined ? [] : [own];
  for (const entry of providers) {
    if (!entry?.allowTools?.length && !entry?.denyTools?.length) continue;
    filters.push({
      ...(entry.allowTools === undefined ? {} : { allowed: entry.allowTools }),
      ...(entry.denyTools === undefined ? {} : { denied: entry.denyTools }),
    });
  }
  return filters;
}
