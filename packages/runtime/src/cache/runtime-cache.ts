import { type Cache, CacheError, createCache, openCacheBackend, parseTtl } from '@agent/cache';
import { errorMessage } from '@agent/protocol/util';
import { effectiveCacheTtl, type RunSettings } from '../agent-file/setting-overrides.js';
import { type ResolvedConfig, unusableValueError } from '../config/layers.js';
import type { McpServerEntry } from '../config/schema.js';
import type { AgentTree } from '../registry/registry.js';

/** How long each tool of one MCP server is cached (`cache`, and `toolsCache` per tool). */
export interface ToolCachePolicy {
  defaultTtlMs: number;
  perTool: Map<string, number>;
}

/** A runner's caches: one store, two namespaces. */
export interface RuntimeCache {
  /** The store's kind (`sqlite`, `redis`, `memory`), for events. */
  backend: string;
  /** Unset when the store could not be opened (see `warning`). */
  responses?: Cache;
  tools?: Cache;
  /** Why caching is off for this runner: a warning in every run that wanted it. */
  warning?: string;
  /** Tool policies of the servers that cache something, by server name. */
  policies: Map<string, ToolCachePolicy>;
  close(): Promise<void>;
}

/** The policy of a server entry, or undefined when it caches nothing (TTLs were checked when the file was read). */
export function toolCachePolicy(
  entry: Pick<McpServerEntry, 'cache' | 'toolsCache'>,
  /** Put before each `toolsCache` name (an OpenAPI spec's `<name>__`: its tools' exposed names). */
  prefix = '',
): ToolCachePolicy | undefined {
  const defaultTtlMs = entry.cache === undefined ? 0 : parseTtl(entry.cache);
  const perTool = new Map(
    Object.entries(entry.toolsCache ?? {}).map(([tool, ttl]) => [`${prefix}${tool}`, parseTtl(ttl)]),
  );
  if (defaultTtlMs === 0 && [...perTool.values()].every((ttl) => ttl === 0)) return undefined;
  return { defaultTtlMs, perTool };
}

/**
 * Opens the cache store when some agent of the tree has a `cache` TTL or one of its MCP servers
 * (or HTTP API) caches tool results; undefined otherwise (no file is touched). A config that cannot work
 * throws (a `RuntimeError` at its line); a store that cannot be opened (a file that cannot be
 * written, Redis down) is a warning, and the runner runs without caching.
 */
export async function openRuntimeCache(
  tree: AgentTree,
  config: ResolvedConfig,
  servers: readonly string[],
  run?: RunSettings,
): Promise<RuntimeCache | undefined> {
  const policies = new Map<string, ToolCachePolicy>();
  for (const name of servers) {
    const spec = config.openapiSpecs.get(name);
    const entry = config.mcpServers.get(name) ?? config.restTools.get(name) ?? config.a2aAgents.get(name);
    const policy =
      entry !== undefined
        ? toolCachePolicy(entry.value)
        : spec === undefined
          ? undefined
          : toolCachePolicy(spec.value, `${name}__`);
    if (policy !== undefined) policies.set(name, policy);
  }
  // `--override cache=` / `--cache` count as well as the files' own `cache`.
  const responsesWanted = [...tree.agents.values()].some(
    (definition) => effectiveCacheTtl(run, definition, definition === tree.root ? 0 : 1) > 0,
  );
  if (!responsesWanted && policies.size === 0) return undefined;
  const section = config.cache?.value ?? {};
  const unusable = unusableValueError(section);
  if (unusable !== undefined) throw unusable;
  const backendName = section.backend ?? 'sqlite';
  try {
    const backend = await openCacheBackend(section, { env: config.env });
    return {
      backend: backend.name,
      responses: createCache(backend, { namespace: 'response:' }),
      tools: createCache(backend, { namespace: 'tool:' }),
      policies,
      close: () => backend.close(),
    };
  } catch (error) {
    if (!(error instanceof CacheError)) throw error;
    return {
      backend: backendName,
      warning: config.redact(
        `the ${backendName} cache is unavailable, running without it: ${errorMessage(error)}`,
      ),
      policies,
      close: async () => {},
    };
  }
}
