import {
  BATCH_TOOL,
  FINAL_REPORT_SHORT_NAME,
  FINAL_REPORT_TOOL,
  REPORT_BACK_TOOL,
  TASK_STATUS_TOOL,
  TOOL_OUTPUT_TOOL,
  TOOL_SEARCH_TOOL,
  type ToolDefinition,
  type ToolOutputHook,
  type ToolProvider,
} from '@agent/protocol';
import { errorMessage } from '@agent/protocol/util';

const RESERVED_TOOLS: ReadonlySet<string> = new Set([
  FINAL_REPORT_TOOL,
  FINAL_REPORT_SHORT_NAME,
  TASK_STATUS_TOOL,
  BATCH_TOOL,
  TOOL_OUTPUT_TOOL,
]);
const RESERVED_WITH_REPORT_BACK: ReadonlySet<string> = new Set([...RESERVED_TOOLS, REPORT_BACK_TOOL]);

/**
 * Names a user's tool may not take: the session's own tools (and `report_back` when it has one,
 * `tool_search` when it has tool search settings).
 */
export function reservedToolNames(withReportBack: boolean, withToolSearch = false): ReadonlySet<string> {
  const reserved = withReportBack ? RESERVED_WITH_REPORT_BACK : RESERVED_TOOLS;
  return withToolSearch ? new Set([...reserved, TOOL_SEARCH_TOOL]) : reserved;
}

export interface ResolvedTool {
  provider: ToolProvider;
  definition: ToolDefinition;
}

/** Finds the provider of a tool by its exposed name. */
export interface ToolLookup {
  resolve(name: string): ResolvedTool | undefined;
  /** What an unknown-tool answer lists. */
  names(): string[];
}

export interface RegistryWarning {
  provider: string;
  message: string;
}

/** The external tools of a session, listed once at start; a provider that fails to list is skipped with a warning. */
export class ToolRegistry implements ToolLookup {
  private readonly byName = new Map<string, ResolvedTool>();
  private listed: ToolDefinition[] = [];
  readonly warnings: RegistryWarning[] = [];

  /** Every tool listed, in order (held for the whole session, so without spare room). */
  get definitions(): readonly ToolDefinition[] {
    return this.listed;
  }

  static async create(
    providers: readonly ToolProvider[],
    reserved: ReadonlySet<string>,
    signal: AbortSignal,
  ): Promise<ToolRegistry> {
    const registry = new ToolRegistry();
    // No providers (a plain served agent): nothing to wait for, no allSettled of an empty list.
    if (providers.length === 0) return registry;
    const listed = await Promise.allSettled(providers.map((provider) => provider.listTools({ signal })));
    listed.forEach((outcome, index) => {
      const provider = providers[index]!;
      if (outcome.status === 'rejected') {
        const reason = errorMessage(outcome.reason);
        registry.warnings.push({ provider: provider.id, message: `listing tools failed: ${reason}` });
        return;
      }
      for (const definition of outcome.value) registry.add(provider, definition, reserved);
    });
    // A push onto an empty array reserves room for 17; the copy holds just what was listed.
    registry.listed = registry.listed.slice();
    return registry;
  }

  private add(provider: ToolProvider, definition: ToolDefinition, reserved: ReadonlySet<string>): void {
    if (reserved.has(definition.name)) {
      this.warnings.push({
        provider: provider.id,
        message: `tool "${definition.name}" is reserved for the session itself and was not added`,
      });
      return;
    }
    const existing = this.byName.get(definition.name);
    if (existing !== undefined) {
      this.warnings.push({
        provider: provider.id,
        message: `tool "${definition.name}" is already provided by "${existing.provider.id}"; kept the first`,
      });
      return;
    }
    this.byName.set(definition.name, { provider, definition });
    this.listed.push(definition);
  }

  resolve(name: string): ResolvedTool | undefined {
    return this.byName.get(name);
  }

  names(): string[] {
    return [...this.byName.keys()];
  }
}

/**
 * The registry's tools, plus the `tool_output` tool while the session's hook offers it. Its
 * names are the tools the model is offered (`offered`: internal ones included), so an
 * unknown-tool answer lists what the model can really call.
 */
export function withHookTools(
  registry: ToolRegistry,
  hook: ToolOutputHook | undefined,
  offered: () => readonly ToolDefinition[],
): ToolLookup {
  return {
    resolve: (name) => {
      const found = registry.resolve(name);
      if (found !== undefined || name !== TOOL_OUTPUT_TOOL) return found;
      const extra = hook?.tools();
      const definition = extra?.definitions.find((d) => d.name === name);
      return extra === undefined || definition === undefined
        ? undefined
        : { provider: extra.provider, definition };
    },
    names: () => offered().map((definition) => definition.name),
  };
}
