import { createToolFilter } from '@agent/mcp';
import type { ToolDefinition, ToolProvider } from '@agent/protocol';

/** `toolsAllowed` / `toolsDenied` of an agent file. */
export interface AgentToolFilter {
  allowed?: readonly string[];
  denied?: readonly string[];
}

/**
 * The names a pattern of an agent file may be written against: the exposed name
 * (`fs__Read`, `agent__child`) and, for MCP tools, ai-agent's full name (`mcp__fs__Read`).
 */
function namesOf(provider: ToolProvider, name: string): string[] {
  return provider.kind === 'mcp' ? [name, `mcp__${name}`] : [name];
}

/**
 * Hides the tools an agent's `toolsAllowed` / `toolsDenied` exclude (on top of the MCP
 * server's own `allowTools` / `denyTools`: both must let a tool through). A call to a hidden
 * tool is refused as an unknown tool, never run.
 */
export function filterAgentTools(provider: ToolProvider, filter: AgentToolFilter): ToolProvider {
  // An empty list is no list (ai-agent: `[]` allows all, denies none).
  const allowed = filter.allowed?.length ? createToolFilter(filter.allowed, undefined) : undefined;
  const denied = filter.denied?.length ? createToolFilter(filter.denied, undefined) : undefined;
  const visible = (name: string) => {
    const names = namesOf(provider, name);
    if (denied !== undefined && names.some((candidate) => denied(candidate))) return false;
    return allowed === undefined || names.some((candidate) => allowed(candidate));
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
