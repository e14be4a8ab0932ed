import { homedir } from 'node:os';
import { join } from 'node:path';
import type { McpServerConfig } from '../client/config.js';
import { McpToolProvider } from '../client/mcp-tool-provider.js';
import { ToolQueues } from '../client/tool-queues.js';
import { startLoopbackRedirect } from './loopback-redirect.js';
import type { McpTokenStore } from './token-store.js';

/** `$XDG_STATE_HOME/agent/mcp-auth`, else `~/.local/state/agent/mcp-auth`: where tokens live. */
export function defaultMcpAuthDir(env: Record<string, string | undefined> = process.env): string {
  const xdg = env.XDG_STATE_HOME;
  return join(
    xdg !== undefined && xdg !== '' ? xdg : join(homedir(), '.local', 'state'),
    'agent',
    'mcp-auth',
  );
}

export interface McpLoginOptions {
  store: McpTokenStore;
  /** Shows the authorization URL to the user (open a browser, or print it). */
  onAuthorizationUrl: (url: URL) => void | Promise<void>;
  /** How long to wait for the approval (default 5 minutes). */
  timeoutMs?: number;
}

/**
 * `agent mcp login`: connects to the server with a loopback redirect; when it asks for
 * authorization the user approves at the URL given to `onAuthorizationUrl`, the SDK trades the
 * code for tokens (kept in `store`) and the tools are listed. Returns how many there are.
 */
export async function loginMcpServer(
  server: string,
  config: McpServerConfig,
  options: McpLoginOptions,
): Promise<{ tools: number }> {
  const oauth = config.type === 'http' || config.type === 'sse' ? config.oauth : undefined;
  const loopback = await startLoopbackRedirect({
    ...(oauth?.redirectPort === undefined ? {} : { port: oauth.redirectPort }),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
  });
  const provider = new McpToolProvider(server, config, {
    queues: new ToolQueues(),
    backoff: { initialMs: 0, maxMs: 0 },
    auth: {
      store: options.store,
      redirectUrl: loopback.redirectUrl,
      authorize: async (url) => {
        const code = loopback.code(url.searchParams.get('state'));
        await options.onAuthorizationUrl(url);
        return await code;
      },
    },
  });
  try {
    return { tools: (await provider.listTools()).length };
  } finally {
    await provider.close();
    await loopback.close();
  }
}

/** What `agent mcp list` says about a server's authorization. */
export type McpAuthState =
  | 'none'
  | 'header'
  | 'client credentials'
  | 'logged in'
  | 'expired, refreshable'
  | 'expired'
  | 'not logged in';

/** The authorization state of one server, from its config and the stored tokens. */
export async function mcpAuthState(
  server: string,
  config: McpServerConfig,
  store: McpTokenStore,
  now = Date.now(),
): Promise<McpAuthState> {
  if (config.type !== 'http' && config.type !== 'sse') return 'none';
  if (Object.keys(config.headers ?? {}).some((name) => name.toLowerCase() === 'authorization'))
    return 'header';
  if (config.oauth?.grant === 'client_credentials') return 'client credentials';
  const stored = await store.load(server);
  if (stored?.tokens === undefined || stored.url !== config.url) return 'not logged in';
  if (stored.expiresAt === undefined || stored.expiresAt > now) return 'logged in';
  return stored.tokens.refresh_token === undefined ? 'expired' : 'expired, refreshable';
}
