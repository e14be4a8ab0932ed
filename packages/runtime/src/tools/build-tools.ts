import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { McpLogSink, McpServerConfig, McpWarning } from '@agent/mcp';
import type { ToolProvider } from '@agent/protocol';
import { type ResolvedConfig, unusableValueError } from '../config/layers.js';
import type { ConfigEntry } from '../config/merge.js';
import type { McpServerEntry } from '../config/schema.js';
import { RuntimeError } from '../errors.js';

/** The filesystem MCP server shipped with `@agent/mcp`. */
export const FS_SERVER_BIN = 'agent-fs-mcp';

let fsServerScript: string | null | undefined;

/** Absolute path of `@agent/mcp`'s `agent-fs-mcp` bin script (`bin/agent-fs-mcp.js`), when it is installed. */
export function fsServerScriptPath(): string | undefined {
  if (fsServerScript === undefined) {
    fsServerScript = null;
    try {
      const require = createRequire(import.meta.url);
      const manifest = require.resolve('@agent/mcp/package.json');
      const bin = (JSON.parse(readFileSync(manifest, 'utf8')) as { bin?: Record<string, string> }).bin?.[
        FS_SERVER_BIN
      ];
      const script = bin === undefined ? undefined : join(dirname(manifest), bin);
      if (script !== undefined && existsSync(script)) fsServerScript = script;
    } catch {
      fsServerScript = null;
    }
  }
  return fsServerScript ?? undefined;
}

/**
 * The `McpServerConfig` of a config entry: `type` inferred (stdio with `command`, http with
 * `url`); the bare command `agent-fs-mcp` runs as `node <@agent/mcp>/bin/agent-fs-mcp.js`
 * so it works without a global install. Throws for a missing variable or a missing field.
 */
export function mcpServerConfig(entry: ConfigEntry<McpServerEntry>): McpServerConfig {
  const missing = unusableValueError(entry.value);
  if (missing !== undefined) throw missing;
  // `cache`, `toolsCache` and `shared` are the runtime's (the tool cache, one server per session), not the MCP client's.
  const {
    type,
    command,
    args,
    env,
    cwd,
    url,
    headers,
    oauth,
    cache: _cache,
    toolsCache: _toolsCache,
    shared: _shared,
    ...common
  } = entry.value;
  const fail = (message: string) => {
    const { file, line } = entry.origin;
    return new RuntimeError({
      kind: 'configuration',
      file,
      ...(line === undefined ? {} : { line }),
      message: `${file}${line === undefined ? '' : `:${line}`}: MCP server \`${entry.name}\`: ${message}`,
    });
  };
  const kind = type ?? (command !== undefined ? 'stdio' : url !== undefined ? 'http' : undefined);
  if (kind === undefined) throw fail('needs `command` (a stdio server) or `url` (an http server)');
  if (kind === 'stdio') {
    if (command === undefined) throw fail('type stdio needs `command`');
    const script = command === FS_SERVER_BIN ? fsServerScriptPath() : undefined;
    return {
      ...common,
      type: 'stdio',
      command: script === undefined ? command : process.execPath,
      args: script === undefined ? (args ?? []) : [script, ...(args ?? [])],
      ...(env === undefined ? {} : { env }),
      ...(cwd === undefined ? {} : { cwd }),
    };
  }
  if (url === undefined) throw fail(`type ${kind} needs \`url\``);
  if (kind === 'websocket') {
    if (!/^wss?:\/\//i.test(url)) throw fail('`url` of a websocket server must be a ws(s) URL');
    // The SDK's WebSocket transport sends no custom headers: dropping them would lose the auth.
    if (headers !== undefined || oauth !== undefined)
      throw fail(
        `\`${headers === undefined ? 'oauth' : 'headers'}\` cannot be used with the websocket transport (it sends no custom headers); use http or sse`,
      );
    return { ...common, type: 'websocket', url };
  }
  if (!/^https?:\/\//i.test(url)) throw fail('`url` must be an http(s) URL');
  return {
    ...common,
    type: kind,
    url,
    ...(headers === undefined ? {} : { headers }),
    ...(oauth === undefined ? {} : { oauth }),
  };
}

export interface McpTools {
  /** Started servers by name. */
  providers: Map<string, ToolProvider>;
  warnings: McpWarning[];
  close(): Promise<void>;
}

/**
 * Starts the named servers once (shared by every agent of a runner) after setting the
 * config's `queues` on `defaultToolQueues`. A server that fails to start is a warning.
 * `@agent/mcp` (the MCP SDK) is imported only when there is a server or a queue to set.
 */
export async function startMcpServers(
  names: readonly string[],
  config: ResolvedConfig,
  options: { onLog?: McpLogSink; signal?: AbortSignal } = {},
): Promise<McpTools> {
  const servers: Record<string, McpServerConfig> = {};
  for (const name of names) {
    const entry = config.mcpServers.get(name);
    if (entry !== undefined) servers[name] = mcpServerConfig(entry);
  }
  const hasQueues = Object.keys(config.queues).length > 0;
  if (Object.keys(servers).length === 0 && !hasQueues)
    return { providers: new Map(), warnings: [], close: async () => {} };
  const { createMcpToolProviders, defaultMcpAuthDir, defaultToolQueues, FileTokenStore } = await import(
    '@agent/mcp'
  );
  if (hasQueues) defaultToolQueues.configure(config.queues);
  if (Object.keys(servers).length === 0) return { providers: new Map(), warnings: [], close: async () => {} };
  const set = await createMcpToolProviders(servers, {
    // Tokens from `agent mcp login`, refreshed when they expire; never an interactive flow here.
    auth: { store: new FileTokenStore(defaultMcpAuthDir(config.env)) },
    ...(options.onLog === undefined ? {} : { onLog: options.onLog }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  return {
    providers: new Map(set.providers.map((provider) => [provider.id, provider])),
    warnings: set.warnings,
    close: () => set.close(),
  };
}
