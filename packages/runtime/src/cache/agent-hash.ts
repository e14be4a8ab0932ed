import { cacheKey } from '@agent/cache';
import type { AgentDefinition } from '../agent-file/definition.js';
import type { ResolvedConfig } from '../config/layers.js';
import type { AgentTree } from '../registry/registry.js';
import { modelIdentity, serverIdentity } from './identity.js';

const hashes = new WeakMap<AgentTree, Map<string, string>>();

/**
 * A stable hash of what an agent is: its prompt (includes expanded), settings, the models it runs
 * with (and their providers' type, endpoint and credentials' hash), its input and output contract,
 * the identity of its MCP servers and HTTP APIs (command, arguments, directory, URL, credentials'
 * hash: two projects' `fs` servers are not the same tools) and, recursively, its sub-agents. Not its file's path nor its cache TTL: moving a file or changing how long answers
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
    v: 2,
    toolName: definition.toolName,
    description: definition.description,
    usage: definition.usage,
    prompt: definition.prompt,
    settings: definition.settings,
    models: (tree.models.get(definition.path) ?? definition.models).map((ref) => modelIdentity(config, ref)),
    tools: definition.tools.map((ref) => [ref.name, serverIdentity(config, ref.name)]),
    input: definition.input,
    output: { format: definition.output.format, schema: definition.output.schema },
    agents,
  });
  known.set(definition.path, hash);
  return hash;
}
