import type { JsonSchema, ToolDefinition } from '@agent/protocol';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ToolNameFilter } from './tool-filter.js';
import { exposedToolNames } from './tool-names.js';

export interface CatalogEntry {
  /** The name the model sees. */
  exposed: string;
  /** The tool as the server listed it. */
  tool: Tool;
  definition: ToolDefinition;
}

/** The tools of one server session, by exposed name. */
export interface ToolCatalog {
  generation: number;
  entries: Map<string, CatalogEntry>;
  definitions: readonly ToolDefinition[];
}

/** Filters a server's tool list and gives every kept tool its exposed name and definition. */
export function buildCatalog(
  server: string,
  tools: readonly Tool[],
  options: { filter: ToolNameFilter; prefix: boolean; queue: string; generation: number },
): ToolCatalog {
  const kept = tools.filter((tool) => options.filter(tool.name));
  const names = exposedToolNames(
    server,
    kept.map((tool) => tool.name),
    { prefix: options.prefix },
  );
  const entries = new Map<string, CatalogEntry>();
  for (const tool of kept) {
    const exposed = names.get(tool.name);
    if (!exposed || entries.has(exposed)) continue;
    const definition: ToolDefinition = {
      name: exposed,
      description: tool.description ?? tool.title ?? tool.annotations?.title ?? '',
      inputSchema: (tool.inputSchema ?? { type: 'object' }) as JsonSchema,
      queue: options.queue,
    };
    entries.set(exposed, { exposed, tool, definition });
  }
  const definitions = [...entries.values()].map((entry) => entry.definition);
  return { generation: options.generation, entries, definitions };
}
