import { cacheKey } from '@agent/cache';
import type { AgentDefinition } from '../agent-file/definition.js';
import type { ResolvedConfig } from '../config/layers.js';
import type { AgentTree } from '../registry.js';

const hashes = new WeakMap<AgentTree, Map<string, string>>();

/**
 * A stable hash of what an agent is: its prompt (includes expanded), settings, the models it runs
 * with, its input and output contract, the identity of its MCP servers (command, arguments,
 * directory, URL: two projects' `fs` servers are not the same tools) and, recursively, its
 * sub-agents. Not its file's path nor its cache TTL: moving a file or changing how long answers
 * are kept does not change what it answers. Computed once per tree.
 */
export function agentHash(tree: AgentTree, config: ResolvedConfig, definition: AgentDefinition): string {
  let known = hashes.get(tree);
  if (known === undefined) {
    known = new Map();
    hashes.set(tree, known);
  }
  const found = known.get(definition.path);
  if (found !== undefined) return found;
  // The tree has no cycles (the registry refused them), so this recursion ends.
  const agents = definition.agents.flatMap((ref) => {
    const child = tree.agents.get(ref.path);
    return child === undefined ? [] : [[child.toolName, agentHash(tree, config, child)]];
  });
  const hash = cacheKey({
    v: 1,
    toolName: definition.toolName,
    description: definition.description,
    usage: definition.usage,
    prompt: definition.prompt,
    settings: definition.settings,
    models: (tree.models.get(definition.path) ?? definition.models).map((ref) => ref.spec),
    tools: definition.tools.map((ref) => [ref.name, serverIdentity(config, ref.name)]),
    input: definition.input,
    output: { format: definition.output.format, schema: definition.output.schema },
    agents,
  });
  known.set(definition.path, hash);
  return hash;
}

/** What makes an MCP server (or HTTP API) the one it is (never its env, headers or auth: they may hold secrets). */
export function serverIdentity(config: ResolvedConfig, name: string): unknown {
  const rest = config.restTools.get(name)?.value;
  if (rest !== undefined) return { rest: [rest.method ?? 'GET', rest.url, rest.bodyTemplate ?? null] };
  const spec = config.openapiSpecs.get(name)?.value;
  if (spec !== undefined) return { openapi: [spec.spec, spec.baseUrl ?? null] };
  const entry = config.mcpServers.get(name)?.value;
  if (entry === undefined) return null;
  const { type, command, args, cwd, url } = entry;
  return { type, command, args, cwd, url };
}
