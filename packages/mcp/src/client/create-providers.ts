import type { McpServerConfig } from './config.js';
import { validateServerConfig } from './config-validation.js';
import { McpToolProvider, type McpToolProviderOptions } from './mcp-tool-provider.js';
import { transportErrorText } from './tool-errors.js';

/** A server that could not be started; the others keep working. */
export interface McpWarning {
  server: string;
  message: string;
}

export interface CreateMcpToolProvidersOptions extends McpToolProviderOptions {
  /** Called once per server that failed to start (also returned in `warnings`). */
  onWarning?: (warning: McpWarning) => void;
  signal?: AbortSignal;
}

export interface McpToolProviderSet {
  /** Providers of the servers that started, in the order of the configuration. */
  providers: McpToolProvider[];
  warnings: McpWarning[];
  /** Closes every provider (idempotent). */
  close(): Promise<void>;
}

/**
 * Starts every configured MCP server at once (connect + list tools). A server that fails -
 * bad config, missing command, crash during `initialize`, timeout - is left out with a warning
 * naming it and the reason; it never stops the others.
 */
export async function createMcpToolProviders(
  servers: Record<string, McpServerConfig>,
  options: CreateMcpToolProvidersOptions = {},
): Promise<McpToolProviderSet> {
  const { onWarning, signal, ...providerOptions } = options;
  const warnings: McpWarning[] = [];
  const warn = (server: string, message: string) => {
    const warning = { server, message: `MCP server "${server}" was not started: ${message}` };
    warnings.push(warning);
    onWarning?.(warning);
  };
  const started = await Promise.all(
    Object.entries(servers).map(async ([name, raw]): Promise<McpToolProvider | undefined> => {
      let config: McpServerConfig;
      try {
        config = validateServerConfig(name, raw);
      } catch (error) {
        warn(name, transportErrorText(error));
        return undefined;
      }
      const provider = new McpToolProvider(name, config, providerOptions);
      try {
        await provider.connect(signal ? { signal } : {});
        return provider;
      } catch (error) {
        await provider.close();
        warn(name, transportErrorText(error));
        return undefined;
      }
    }),
  );
  const providers = started.filter((provider): provider is McpToolProvider => provider !== undefined);
  let closing: Promise<void> | undefined;
  return {
    providers,
    warnings,
    close: () => {
      closing ??= Promise.all(providers.map((provider) => provider.close())).then(() => undefined);
      return closing;
    },
  };
}
