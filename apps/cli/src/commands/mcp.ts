import { spawn } from 'node:child_process';
import type { McpServerConfig, McpTokenStore } from '@agent/mcp';
import { errorMessage } from '@agent/protocol/util';
import type { ConfiguredMcpServer } from '@agent/runtime';
import { CliError } from '../cli-error.js';
import { CLI_EXIT, type CliExitCode } from '../exit-codes.js';
import { type CliIo, writeAndFlush } from '../io.js';
import { formatProblem, runtimeErrorProblem } from '../runtime-errors.js';

export interface McpCliOptions {
  config?: string;
  json?: boolean;
}

async function servers(options: McpCliOptions, cwd: string): Promise<ConfiguredMcpServer[]> {
  try {
    const { configuredMcpServers } = await import('@agent/runtime');
    return configuredMcpServers({
      cwd,
      ...(options.config === undefined ? {} : { configPath: options.config }),
    });
  } catch (error) {
    const problem = runtimeErrorProblem(error, options.config ?? cwd);
    if (problem === undefined) throw error;
    throw new CliError(formatProblem(problem), CLI_EXIT.configuration);
  }
}

/** The usable config of one named server, or a configuration error naming the known ones. */
async function serverConfig(name: string, options: McpCliOptions, cwd: string): Promise<McpServerConfig> {
  const all = await servers(options, cwd);
  const found = all.find((server) => server.name === name);
  if (found === undefined) {
    const known = all.map((server) => server.name).join(', ') || 'none';
    throw new CliError(`no MCP server "${name}" in the config (servers: ${known})`, CLI_EXIT.configuration);
  }
  if (found.config === undefined)
    throw new CliError(found.problem ?? 'unusable entry', CLI_EXIT.configuration);
  return found.config;
}

/** `@agent/mcp` (the MCP SDK), imported by the `agent mcp` commands only: `agent run` never loads it for them. */
const mcp = () => import('@agent/mcp');

async function store(io: CliIo): Promise<McpTokenStore> {
  const { FileTokenStore, defaultMcpAuthDir } = await mcp();
  return new FileTokenStore(defaultMcpAuthDir(io.env));
}

/** Opens `url` in a browser when there is a display and a terminal; false when it cannot. */
function openBrowser(url: URL, io: CliIo): boolean {
  if (io.stderr.isTTY !== true) return false;
  const opener =
    process.platform === 'darwin'
      ? 'open'
      : process.platform === 'win32'
        ? undefined
        : io.env.DISPLAY || io.env.WAYLAND_DISPLAY
          ? 'xdg-open'
          : undefined;
  if (opener === undefined) return false;
  try {
    const child = spawn(opener, [url.href], { stdio: 'ignore', detached: true });
    child.on('error', () => undefined);
    child.unref();
    return true;
  } catch {
    return false;
  }
}

/** `agent mcp login <server>`: the browser flow with a loopback redirect; tokens kept 0600. */
export async function mcpLoginCommand(
  name: string,
  options: McpCliOptions,
  io: CliIo,
  cwd = process.cwd(),
): Promise<CliExitCode> {
  const config = await serverConfig(name, options, cwd);
  if (config.type !== 'http' && config.type !== 'sse') {
    throw new CliError(
      `MCP server "${name}" is a ${config.type} server: only http and sse servers log in`,
      CLI_EXIT.usage,
    );
  }
  const { loginMcpServer } = await mcp();
  const tokens = await store(io);
  try {
    const { tools } = await loginMcpServer(name, config, {
      store: tokens,
      onAuthorizationUrl: async (url) => {
        const opened = openBrowser(url, io);
        await writeAndFlush(
          io.stderr,
          `${opened ? 'Approve the login in your browser; if it did not open, visit' : 'Open this URL in a browser to log in'}:\n${url.href}\n`,
        );
      },
    });
    await writeAndFlush(io.stdout, `Logged in to ${name} (${tools} tool${tools === 1 ? '' : 's'}).\n`);
    return CLI_EXIT.success;
  } catch (error) {
    throw new CliError(`login to MCP server "${name}" failed: ${errorMessage(error)}`, CLI_EXIT.auth);
  }
}

/** `agent mcp logout <server>`: forgets its stored client and tokens. */
export async function mcpLogoutCommand(
  name: string,
  options: McpCliOptions,
  io: CliIo,
  cwd = process.cwd(),
): Promise<CliExitCode> {
  await serverConfig(name, options, cwd);
  const tokens = await store(io);
  const had = (await tokens.load(name)) !== undefined;
  await tokens.remove(name);
  await writeAndFlush(io.stdout, had ? `Logged out of ${name}.\n` : `No stored login for ${name}.\n`);
  return CLI_EXIT.success;
}

interface ListedServer {
  name: string;
  transport: string;
  auth: string;
  tools: number | null;
  problem?: string;
}

/** Connects with the stored tokens (no flow) and counts the tools; a failure is the problem. */
async function countTools(
  name: string,
  config: McpServerConfig,
  io: CliIo,
): Promise<{ tools: number | null; problem?: string }> {
  const { McpToolProvider, ToolQueues } = await mcp();
  const provider = new McpToolProvider(
    name,
    { ...config, connectTimeoutMs: config.connectTimeoutMs ?? 10_000 },
    {
      queues: new ToolQueues(),
      auth: { store: await store(io) },
    },
  );
  try {
    return { tools: (await provider.listTools()).length };
  } catch (error) {
    return { tools: null, problem: errorMessage(error) };
  } finally {
    await provider.close();
  }
}

/** `agent mcp list`: every configured server with its transport, authorization state and tool count. */
export async function mcpListCommand(
  options: McpCliOptions,
  io: CliIo,
  cwd = process.cwd(),
): Promise<CliExitCode> {
  const listed: ListedServer[] = await Promise.all(
    (await servers(options, cwd)).map(async (server): Promise<ListedServer> => {
      if (server.config === undefined) {
        return {
          name: server.name,
          transport: '?',
          auth: '?',
          tools: null,
          problem: server.problem ?? 'unusable',
        };
      }
      const { mcpAuthState } = await mcp();
      const auth = await mcpAuthState(server.name, server.config, await store(io));
      const counted = await countTools(server.name, server.config, io);
      return { name: server.name, transport: server.config.type, auth, ...counted };
    }),
  );
  if (options.json === true) {
    await writeAndFlush(io.stdout, `${JSON.stringify(listed, null, 2)}\n`);
    return CLI_EXIT.success;
  }
  const lines = listed.length === 0 ? ['(no MCP servers in the config)'] : [];
  for (const server of listed) {
    const tools =
      server.tools === null ? 'unavailable' : `${server.tools} tool${server.tools === 1 ? '' : 's'}`;
    lines.push(`${server.name}  ${server.transport}  auth: ${server.auth}  ${tools}`);
    if (server.problem !== undefined) lines.push(`  ${server.problem}`);
  }
  await writeAndFlush(io.stdout, `${lines.join('\n')}\n`);
  return CLI_EXIT.success;
}
