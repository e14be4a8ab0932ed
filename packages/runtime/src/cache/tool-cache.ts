import { type Cache, cacheKey, formatTtl } from '@agent/cache';
import type {
  CacheHit,
  ContentPart,
  ToolCallRequest,
  ToolExecuteOptions,
  ToolProvider,
  ToolResult,
} from '@agent/protocol';
import { errorMessage } from '@agent/protocol/util';
import type { ToolCachePolicy } from './runtime-cache.js';

/** What a tool cache entry holds: the successful result as the model got it. */
interface CachedToolResult {
  v: 1;
  text: string;
  parts?: ContentPart[];
  structured?: unknown;
}

export interface ToolCacheOptions {
  cache: Cache;
  backend: string;
  policy: ToolCachePolicy;
  /** The server's identity (command, args, URL, credentials' hash), part of every key. */
  identity: unknown;
  /** The MCP name of an exposed tool name (`fs__Read` -> `Read`). */
  toolName: (exposed: string) => string;
  onHit: (hit: CacheHit) => void;
  /** A store that failed (a miss then: `warning`), or a result too large to keep (not a warning). */
  onProblem: (message: string, warning: boolean) => void;
  /** Whether the provider lets a result be kept (an A2A task's question is not); default all. */
  cacheable?: (result: ToolResult) => boolean;
}

/**
 * An MCP server's tools with their successful results cached by server, tool and arguments, for
 * the TTL its `cache` / `toolsCache` gives each tool. A hit answers without calling the server and
 * says so (`ToolResult.cached`: the session marks the call's accounting and op node; `onHit`
 * sends the event). Failures, tool errors (`isError`) and sub-agent results are never stored.
 */
export function withToolCache(provider: ToolProvider, options: ToolCacheOptions): ToolProvider {
  const { policy } = options;
  return {
    id: provider.id,
    ...(provider.kind === undefined ? {} : { kind: provider.kind }),
    listTools: (listOptions) => provider.listTools(listOptions),
    ...(provider.instructions === undefined ? {} : { instructions: () => provider.instructions?.() }),
    async execute(call: ToolCallRequest, executeOptions: ToolExecuteOptions): Promise<ToolResult> {
      const tool = options.toolName(call.name);
      const ttlMs = policy.perTool.get(tool) ?? policy.defaultTtlMs;
      if (ttlMs === 0) return provider.execute(call, executeOptions);
      let key: string;
      try {
        key = cacheKey({
          v: 2,
          server: provider.id,
          identity: options.identity,
          tool,
          arguments: call.arguments,
        });
      } catch (error) {
        // Arguments JSON cannot hold (never from a model's call, which is parsed JSON): no caching.
        options.onProblem(`tool cache: ${errorMessage(error)}`, true);
        return provider.execute(call, executeOptions);
      }
      const hit = await cachedResult(key, provider.id, tool, options);
      if (hit !== undefined) return hit;
      const result = await provider.execute(call, executeOptions);
      await storeResult(key, tool, ttlMs, result, options);
      return result;
    },
  };
}

/** The stored result of this call as a `cached` result, reporting the hit; undefined on a miss or a lookup that failed. */
async function cachedResult(
  key: string,
  server: string,
  tool: string,
  options: ToolCacheOptions,
): Promise<ToolResult | undefined> {
  try {
    const hit = await options.cache.get<CachedToolResult>(key);
    if (hit === undefined || hit.value.v !== 1 || typeof hit.value.text !== 'string') return undefined;
    options.onHit({
      kind: 'tool',
      key: key.slice(0, 16),
      backend: options.backend,
      ageMs: hit.ageMs,
      expiresInMs: hit.expiresInMs,
      server,
      tool,
    });
    const { text, parts, structured } = hit.value;
    return {
      ok: true,
      text,
      ...(parts === undefined ? {} : { parts }),
      ...(structured === undefined ? {} : { structured }),
      cached: true,
    };
  } catch (error) {
    options.onProblem(`tool cache lookup failed, calling the tool: ${errorMessage(error)}`, true);
    return undefined;
  }
}

/** Stores a successful result for `ttlMs`; a result too large to keep is said, a store that fails warned about. */
async function storeResult(
  key: string,
  tool: string,
  ttlMs: number,
  result: ToolResult,
  options: ToolCacheOptions,
): Promise<void> {
  if (!result.ok || result.isError === true || result.childSession !== undefined) return;
  if (options.cacheable?.(result) === false) return;
  const value: CachedToolResult = {
    v: 1,
    text: result.text,
    ...(result.parts === undefined ? {} : { parts: result.parts }),
    ...(result.structured === undefined ? {} : { structured: result.structured }),
  };
  try {
    const stored = await options.cache.set(key, value, ttlMs);
    if (!stored.stored && stored.reason === 'too_large') {
      options.onProblem(
        `tool cache: the ${tool} result is not cached (${formatTtl(ttlMs)}): ${stored.detail}`,
        false,
      );
    }
  } catch (error) {
    options.onProblem(`tool cache store failed: ${errorMessage(error)}`, true);
  }
}
