import type { AgentEventMeta, ToolProvider, ToolResult } from '@agent/protocol';
import type { EventListener, RunScope } from '../runner/run-scope.js';
import type { RunnerContext } from '../session-run/session-request.js';
import { serverIdentity } from './identity.js';
import { withToolCache } from './tool-cache.js';

/**
 * Something that may name an exposed tool by its MCP name (`McpToolProvider.toolName`), or say
 * which results may be kept (`A2aToolProvider.cacheable`).
 */
interface NamesTools {
  toolName?: (exposed: string) => string | undefined;
  cacheable?: (result: ToolResult) => boolean;
}

/**
 * One session's view of an MCP server: `provider` as is, or behind the tool cache when the
 * server's `cache` / `toolsCache` says so. `raw` is the server's own provider (it knows the MCP
 * names of the exposed tools); hits go to the session's listener as `cache_hit` events and a
 * log line; store problems are warnings (the call then runs as usual).
 */
export function cachedTools(
  ctx: RunnerContext,
  server: string,
  raw: ToolProvider,
  provider: ToolProvider,
  session: { scope: RunScope; meta: AgentEventMeta; listener: EventListener },
): ToolProvider {
  const policy = ctx.cache?.policies.get(server);
  const cache = ctx.cache?.tools;
  if (policy === undefined || ctx.cache === undefined) return provider;
  const { scope, meta, listener } = session;
  const log = (severity: 'VRB' | 'WRN', message: string) =>
    scope.log(
      { severity, direction: 'response', type: 'tool', remoteIdentifier: `mcp:${server}`, message },
      meta,
    );
  if (cache === undefined) {
    if (ctx.cache.warning !== undefined) log('WRN', ctx.cache.warning);
    return provider;
  }
  const names = raw as NamesTools;
  return withToolCache(provider, {
    cache,
    backend: ctx.cache.backend,
    policy,
    identity: serverIdentity(ctx.config, server),
    toolName: (exposed) => names.toolName?.(exposed) ?? exposed,
    ...(names.cacheable === undefined ? {} : { cacheable: (result) => names.cacheable?.(result) !== false }),
    onHit: (hit) => {
      listener({ type: 'cache_hit', hit }, meta);
      log('VRB', `${hit.tool}: answered from the tool cache (key ${hit.key}, stored ${hit.ageMs} ms ago)`);
    },
    onProblem: (message, warning) => log(warning ? 'WRN' : 'VRB', message),
  });
}
